import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type LoadConfigResult } from './load-config';

let home: string;
const deps = () => ({ home, uid: 1000, hostname: 'ada-laptop' });

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'collie-config-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function writeEnv(text: string, dir = join(home, '.config', 'collie')): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, '.env');
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

function ok(result: LoadConfigResult) {
  if (!result.ok) throw new Error(`expected a config, got: ${result.errors.join('; ')}`);
  return result;
}

function errors(result: LoadConfigResult): readonly string[] {
  if (result.ok) throw new Error('expected errors');
  return result.errors;
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const { config, warnings } = ok(loadConfig({}, deps()));
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      instance: null,
      configDir: join(home, '.config', 'collie'),
      envFile: join(home, '.config', 'collie', '.env'),
      stateDir: join(home, '.local', 'state', 'collie'),
      port: 8787,
      host: '127.0.0.1',
      allowedHosts: [],
      redact: true,
      machine: 'ada-laptop',
      tmuxTmpdir: '/tmp',
      tmuxSocketDir: '/tmp/tmux-1000',
    });
  });

  it('reads .env under the environment: the environment wins, empty counts as unset', () => {
    writeEnv('COLLIE_PORT=9000\nCOLLIE_MACHINE=from-file\nCOLLIE_REDACT=off\nCOLLIE_WALKY=off\n');
    const { config } = ok(loadConfig({ COLLIE_PORT: '9100', COLLIE_MACHINE: '', HOME: '/ignored' }, deps()));
    expect(config.port).toBe(9100);
    expect(config.machine).toBe('from-file');
    expect(config.redact).toBe(false);
    expect(config.env['COLLIE_WALKY']).toBe('off');
    expect(config.env['COLLIE_PORT']).toBe('9100');
  });

  it('takes the config dir from COLLIE_CONFIG_DIR, and ignores it and COLLIE_INSTANCE in .env', () => {
    const dir = join(home, 'elsewhere');
    const file = writeEnv('COLLIE_PORT=0\nCOLLIE_INSTANCE=x\nCOLLIE_CONFIG_DIR=/y\n', dir);
    const { config, warnings } = ok(loadConfig({ COLLIE_CONFIG_DIR: dir }, deps()));
    expect(config.configDir).toBe(dir);
    expect(config.port).toBe(0);
    expect(config.instance).toBeNull();
    expect(warnings).toEqual([
      `${file}: COLLIE_CONFIG_DIR is ignored in .env; set it in the environment`,
      `${file}: COLLIE_INSTANCE is ignored in .env; set it in the environment`,
    ]);
  });

  it('resolves the state dir: COLLIE_STATE_DIR, then XDG_STATE_HOME, then ~/.local/state', () => {
    expect(ok(loadConfig({ COLLIE_STATE_DIR: '/s', XDG_STATE_HOME: '/x' }, deps())).config.stateDir).toBe('/s');
    expect(ok(loadConfig({ XDG_STATE_HOME: '/x' }, deps())).config.stateDir).toBe('/x/collie');
    // A relative XDG_STATE_HOME is invalid per the XDG spec, and ignored.
    expect(ok(loadConfig({ XDG_STATE_HOME: 'rel' }, deps())).config.stateDir).toBe(join(home, '.local/state/collie'));
    writeEnv('COLLIE_STATE_DIR=/from-file\n');
    expect(ok(loadConfig({}, deps())).config.stateDir).toBe('/from-file');
  });

  it('gives a named instance its own config and state dirs', () => {
    writeEnv('COLLIE_PORT=9000\n');
    writeEnv('COLLIE_PORT=9001\n', join(home, '.config', 'collie', 'instances', 'demo'));
    const { config } = ok(loadConfig({ COLLIE_INSTANCE: 'demo', COLLIE_STATE_DIR: '/s' }, deps()));
    expect(config.instance).toBe('demo');
    expect(config.configDir).toBe(join(home, '.config', 'collie', 'instances', 'demo'));
    expect(config.stateDir).toBe('/s/instances/demo');
    expect(config.port).toBe(9001);
    expect(ok(loadConfig({ COLLIE_INSTANCE: 'default' }, deps())).config.instance).toBeNull();
  });

  it('finds the tmux socket dir as tmux does', () => {
    expect(ok(loadConfig({ TMUX_TMPDIR: '/run/t' }, deps())).config.tmuxSocketDir).toBe('/run/t/tmux-1000');
    const both = ok(loadConfig({ TMUX_TMPDIR: '/run/t', COLLIE_TMUX_TMPDIR: '/c' }, deps())).config;
    expect([both.tmuxTmpdir, both.tmuxSocketDir]).toEqual(['/c', '/c/tmux-1000']);
  });

  it('accepts loopback hosts only', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST']) {
      expect(ok(loadConfig({ COLLIE_HOST: host }, deps())).config.host).toMatch(/^(127\.|::1$|localhost$)/);
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.4', 'example.com', '127.0.0.256', '::ffff:10.0.0.1']) {
      const [e] = errors(loadConfig({ COLLIE_HOST: host }, deps()));
      expect(e).toMatch(new RegExp(`^COLLIE_HOST: "${host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" is not a loopback address`));
      expect(e).toContain('COLLIE_ALLOWED_HOSTS');
    }
  });

  it('parses allowed hosts as a clean list and names bad entries', () => {
    const { config } = ok(loadConfig({ COLLIE_ALLOWED_HOSTS: ' My-Laptop.tail1234.ts.net , ,phone.lan:8443,[fd7a::1]' }, deps()));
    expect(config.allowedHosts).toEqual(['my-laptop.tail1234.ts.net', 'phone.lan:8443', '[fd7a::1]']);
    expect(errors(loadConfig({ COLLIE_ALLOWED_HOSTS: 'ok.lan,*.ts.net,a b' }, deps()))).toEqual([
      'COLLIE_ALLOWED_HOSTS: "*.ts.net", "a b" are not a host name (a comma-separated list of names such as my-laptop.tail1234.ts.net, no wildcards)',
    ]);
  });

  it('reads COLLIE_TRUSTED_PROXY_USER as a uid or a user name of /etc/passwd, root by default', () => {
    expect(ok(loadConfig({}, deps())).config.trustedProxyUid).toBe(0);
    expect(ok(loadConfig({ COLLIE_TRUSTED_PROXY_USER: '1234' }, deps())).config.trustedProxyUid).toBe(1234);
    expect(ok(loadConfig({ COLLIE_TRUSTED_PROXY_USER: 'root' }, deps())).config.trustedProxyUid).toBe(0);
    expect(ok(loadConfig({ COLLIE_TRUSTED_PROXY_USER: 'nobody' }, deps())).config.trustedProxyUid).toBe(65534);
    const [e] = errors(loadConfig({ COLLIE_TRUSTED_PROXY_USER: 'no-such-user-here' }, deps()));
    expect(e).toMatch(/^COLLIE_TRUSTED_PROXY_USER: "no-such-user-here" is not a user of this machine/);
  });

  it('reads COLLIE_REDACT as a switch, on by default', () => {
    for (const off of ['0', 'false', 'OFF', 'no']) expect(ok(loadConfig({ COLLIE_REDACT: off }, deps())).config.redact).toBe(false);
    for (const on of ['1', 'true', 'On', 'yes', '']) expect(ok(loadConfig({ COLLIE_REDACT: on }, deps())).config.redact).toBe(true);
    expect(errors(loadConfig({ COLLIE_REDACT: 'of' }, deps()))).toEqual([
      'COLLIE_REDACT: "of" is not on or off (use 1/true/on/yes or 0/false/off/no)',
    ]);
  });

  it("reads COLLIE_NERVE_API as absolute paths to Nerves' api.json files or folders, none by default", () => {
    expect(ok(loadConfig({}, deps())).config.nerveApiFile).toBeNull();
    expect(ok(loadConfig({ COLLIE_NERVE_API: '/srv/nerve/api.json' }, deps())).config.nerveApiFile).toBe('/srv/nerve/api.json');
    expect(ok(loadConfig({ COLLIE_NERVE_API: '/srv/nerve/api.json:/srv/nerves' }, deps())).config.nerveApiFile).toBe('/srv/nerve/api.json:/srv/nerves');
    expect(errors(loadConfig({ COLLIE_NERVE_API: 'nerve/api.json' }, deps()))).toEqual([
      'COLLIE_NERVE_API: "nerve/api.json" is not \':\'-separated absolute paths to a Nerve\'s api.json or a folder of Nerve state dirs: entry "nerve/api.json" is not an absolute path',
    ]);
  });

  it('reports every bad variable at once, each by name', () => {
    const e = errors(
      loadConfig(
        {
          COLLIE_PORT: '70000',
          COLLIE_MACHINE: 'a/b',
          COLLIE_INSTANCE: '../x',
          COLLIE_STATE_DIR: 'relative/state',
          COLLIE_TMUX_TMPDIR: 'tmp',
        },
        deps(),
      ),
    );
    expect(e.map((line) => line.split(':')[0]).sort()).toEqual([
      'COLLIE_INSTANCE',
      'COLLIE_MACHINE',
      'COLLIE_PORT',
      'COLLIE_STATE_DIR',
      'COLLIE_TMUX_TMPDIR',
    ]);
    expect(e).toContain('COLLIE_PORT: "70000" is not a port number (0 to 65535; 0 picks a free port)');
  });

  it('makes a default machine name from an odd host name', () => {
    expect(ok(loadConfig({}, { ...deps(), hostname: 'Ada’s Mac#2' })).config.machine).toBe('Ada-s-Mac-2');
    expect(ok(loadConfig({}, { ...deps(), hostname: '' })).config.machine).toBe('localhost');
  });

  it('warns about malformed .env lines and loose modes, and still loads', () => {
    const file = writeEnv('COLLIE_PORT=9000\nnot a line\nX="open\n');
    chmodSync(file, 0o644);
    const { config, warnings } = ok(loadConfig({}, deps()));
    expect(config.port).toBe(9000);
    expect(warnings).toEqual([
      `${file}: readable by other users (mode 644); run chmod 600 on it`,
      `${file}:2: expected KEY=value; line skipped`,
      `${file}:3: X: unterminated double quote (values may not span lines); line skipped`,
    ]);
  });

  it('warns when .env cannot be read', () => {
    mkdirSync(join(home, '.config', 'collie', '.env'), { recursive: true });
    const { warnings } = ok(loadConfig({}, deps()));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/\.env: not read \(EISDIR\)$/);
  });
});
