/**
 * `collie walky …`, the client side: one request line to `<state>/walky/sock`, one answer
 * line back. Bundled alone, as CommonJS (dist/walky.cjs), so the command starts fast.
 */
import { connect } from 'node:net';
import { join } from 'node:path';
import type { WalkyAnswer, WalkyRequest } from '@collie/protocol';
import { isWalkyAnswer, MESSAGE_ID, WALKY_MAX_LINE, WALKY_WAIT_MS } from '@collie/protocol/walky-words';
import { statePaths } from '../../config/state-paths';
import { newMessageId } from '../../walky/ids';
import { parseWalkyArgs, USAGE, type WalkyArgs } from './args';
import { printAnswer, type Printed } from './print';

export { parseWalkyArgs, USAGE } from './args';

export interface WalkyIo {
  env: NodeJS.ProcessEnv;
  readStdin(): Promise<string>;
  pid: number;
  platform: NodeJS.Platform;
}

/** Run one walky command; never throws, returns what to print and the exit code. */
export async function walky(argv: readonly string[], io: WalkyIo): Promise<Printed> {
  if (io.platform === 'win32') return { out: '', err: 'walky talky needs a Unix socket on this host.\n', code: 1 };
  const args = parseWalkyArgs(argv);
  if (!args) return { out: '', err: `${USAGE}\n`, code: 2 };
  // Only the paths: the settings schema is the bridge's business, and costs start time here.
  const paths = statePaths(io.env);
  if (paths.errors.length > 0) return { out: '', err: `collie: the configuration is not usable:\n  ${paths.errors.join('\n  ')}\n`, code: 1 };
  const badId = 'id' in args && args.id !== null && !MESSAGE_ID.test(args.id);
  if (badId) return { out: '', err: `${args.id} is not a message id (wt_ and 12 letters or digits)\n`, code: 3 };
  const req = await request(args, io);
  const socket = join(paths.stateDir, 'walky', 'sock');
  const deadline = Date.now() + WALKY_WAIT_MS + 10_000;
  // A bridge that stops or restarts mid-request ends the connection unanswered. The same request
  // is asked again once it is back, within the same wait: a message keeps its id, and the bridge
  // types one id once, so nothing is typed twice and the sender is not told of a failure that
  // was only a restart (it would send again, under a new id).
  let stopped = false;
  for (;;) {
    try {
      return printAnswer(await call(socket, stopped ? askedAgain(req, deadline) : req, Math.max(1_000, deadline - Date.now())), args.json);
    } catch (err) {
      const gone = err instanceof BridgeGone ? err : null;
      // Not running at the first try: said at once. Refused after it stopped: it is starting again.
      if (gone && (gone.kind === 'closed' || (gone.kind === 'refused' && stopped)) && Date.now() + RETRY_MS < deadline) {
        stopped = true;
        await new Promise((r) => setTimeout(r, RETRY_MS));
        continue;
      }
      const total = (WALKY_WAIT_MS + 10_000) / 1000;
      const message = gone?.kind === 'timeout' ? `no answer from the bridge within ${total} s` : stopped ? `the bridge stopped before it answered and was not back within ${total} s` : (err as Error).message;
      // The bridge may have taken a message before it stopped or while it was slow: its id tells.
      const maybe = (stopped || gone?.kind === 'timeout') && 'id' in req && (req.verb === 'send' || req.verb === 'reply');
      const later = maybe ? `the message may have been taken: ${req.id}\ncheck later: collie walky status ${req.id}\n` : '';
      return { out: '', err: `collie walky: ${message}\n${later}`, code: 1 };
    }
  }
}

async function request(a: WalkyArgs, io: WalkyIo): Promise<WalkyRequest> {
  const base = { v: 1 as const, pid: io.pid };
  switch (a.verb) {
    case 'who':
      return { ...base, verb: 'who' };
    case 'send':
      return { ...base, verb: 'send', to: a.to, body: a.text ?? (await io.readStdin()), id: newMessageId() };
    case 'reply':
      return { ...base, verb: 'reply', to_id: a.id, body: a.text ?? (await io.readStdin()), id: newMessageId() };
    case 'inbox':
      return { ...base, verb: 'inbox', ...(a.id ? { id: a.id } : {}), all: a.all, keep: a.keep };
    case 'status':
      return { ...base, verb: 'status', id: a.id };
  }
}

/** How long a request waits before it is asked again of a bridge that stopped mid-request. */
const RETRY_MS = 250;

/** What the bridge may take, of the time left, to prove the caller, log the message and answer. */
const ANSWER_MARGIN_MS = 5_000;

/**
 * A send or reply asked again after a restart has less of its wait left: it tells the bridge how
 * much (`wait_ms`), and the bridge answers with the receipt it has by then (`accepted`, check
 * later) instead of waiting its own 15 s past the sender's wait. Only on a request asked again: a
 * bridge that was not restarted may be an older one, which knows no `wait_ms`.
 */
export function askedAgain(req: WalkyRequest, deadline: number, now = Date.now()): WalkyRequest {
  if (req.verb !== 'send' && req.verb !== 'reply') return req;
  return { ...req, wait_ms: Math.max(0, Math.min(WALKY_WAIT_MS, deadline - now - ANSWER_MARGIN_MS)) };
}

/**
 * Why a request got no answer: the socket refused it (no bridge listening), the bridge closed
 * the connection before it answered (it stopped or restarted), or no answer came in time.
 */
export class BridgeGone extends Error {
  constructor(
    readonly kind: 'refused' | 'closed' | 'timeout',
    message: string,
  ) {
    super(message);
  }
}

/** One request, one answer, on the walky socket. */
export function call(path: string, req: WalkyRequest, timeoutMs: number): Promise<WalkyAnswer> {
  return new Promise((resolve, reject) => {
    const s = connect(path);
    let buf = '';
    let connected = false;
    const timer = setTimeout(() => fail(new BridgeGone('timeout', `no answer from the bridge within ${timeoutMs / 1000} s`)), timeoutMs);
    const fail = (e: Error) => {
      clearTimeout(timer);
      s.destroy();
      reject(e);
    };
    s.setEncoding('utf8');
    s.on('connect', () => {
      connected = true;
      s.write(`${JSON.stringify(req)}\n`);
    });
    s.on('data', (d: string) => {
      buf += d;
      if (buf.length > WALKY_MAX_LINE * 2) fail(new Error('the answer is too long'));
    });
    s.on('end', () => {
      clearTimeout(timer);
      s.destroy();
      if (buf === '') return reject(new BridgeGone('closed', 'the bridge closed the connection before it answered'));
      try {
        const answer: unknown = JSON.parse(buf.split('\n')[0] ?? '');
        if (!isWalkyAnswer(answer)) throw new Error('not an answer');
        resolve(answer);
      } catch {
        reject(new Error('the bridge sent an answer this collie does not read (a different version?)'));
      }
    });
    s.on('error', (e: NodeJS.ErrnoException) => {
      if (!connected && (e.code === 'ENOENT' || e.code === 'ECONNREFUSED')) return fail(new BridgeGone('refused', `the bridge is not running (no socket at ${path}): start it with collie start`));
      // A bridge killed mid-request resets the connection instead of closing it.
      if (connected && buf === '' && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) return fail(new BridgeGone('closed', 'the bridge closed the connection before it answered'));
      fail(new Error(e.message));
    });
  });
}

/** The entry the CLI calls: prints and sets the exit code. */
export async function main(argv: readonly string[]): Promise<void> {
  const printed = await walky(argv, {
    env: process.env,
    pid: process.pid,
    platform: process.platform,
    readStdin: async () => {
      let text = '';
      process.stdin.setEncoding('utf8');
      for await (const chunk of process.stdin) text += chunk as string;
      return text;
    },
  });
  if (printed.out) process.stdout.write(printed.out);
  if (printed.err) process.stderr.write(printed.err);
  process.exitCode = printed.code;
}
