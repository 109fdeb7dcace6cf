/**
 * The redaction corpus: lines that must be masked, and lines that must pass unchanged.
 *
 * Fake keys are assembled at load time from a prefix and a generated body, so this file
 * holds no string that a secret scanner would take for a live credential.
 */

/** Deterministic key body: `n` characters cycled from `alphabet`, starting at `seed`. */
export function fakeBody(n: number, seed = 0, alphabet = 'A1b2C3d4E5f6G7h8J9k0LmNpQrStUvWxYz'): string {
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[(i * 7 + seed) % alphabet.length];
  return out;
}

const p = (...parts: string[]) => parts.join('');

export const keys = {
  anthropic: p('sk-', 'ant-', 'api03-', fakeBody(80, 1)),
  openai: p('sk-', fakeBody(48, 2)),
  openaiProject: p('sk-', 'proj-', fakeBody(120, 3, 'aB3_cD4-eF5gH6iJ7kL8mN9')),
  google: p('AI', 'za', fakeBody(35, 4)),
  githubPat: p('gh', 'p_', fakeBody(36, 5)),
  githubOauth: p('gh', 'o_', fakeBody(36, 6)),
  githubServer: p('gh', 's_', fakeBody(36, 7)),
  githubFine: p('github', '_pat_', fakeBody(22, 8), '_', fakeBody(59, 9)),
  gitlab: p('gl', 'pat-', fakeBody(20, 10)),
  slackBot: p('xo', 'xb-', '1234567890-', fakeBody(24, 11)),
  slackUser: p('xo', 'xp-', '1234567890-9876543210-', fakeBody(32, 12)),
  awsKeyId: p('AK', 'IA', fakeBody(16, 13, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')),
  awsSecret: p(fakeBody(30, 14), '/', fakeBody(9, 15)),
  stripe: p('sk', '_live_', fakeBody(24, 16)),
  stripeRestricted: p('rk', '_live_', fakeBody(24, 17)),
  huggingface: p('hf', '_', fakeBody(34, 18)),
  jwt: p('eyJ', 'hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', '.', 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSJ9', '.', fakeBody(43, 19)),
};

const pemBody = [fakeBody(64, 20, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'), fakeBody(64, 21), fakeBody(40, 22) + '=='];
const BEGIN = p('-----BEGIN ', 'RSA PRIVATE KEY-----');
const END = p('-----END ', 'RSA PRIVATE KEY-----');

/** A line (or lines) holding a secret, and the secret: none of its tail may survive. */
export interface Positive {
  readonly name: string;
  readonly text: string;
  readonly secret: string;
  /** The exact masked text, where the kept prefix matters. */
  readonly expected?: string;
}

const SGR_GREEN = '\x1b[32m';
const SGR_BOLD = '\x1b[1m';
const SGR_RESET = '\x1b[0m';

export const positives: readonly Positive[] = [
  { name: 'anthropic bare', text: `key: ${keys.anthropic} (new)`, secret: keys.anthropic, expected: 'key: sk-ant-… (new)' },
  { name: 'anthropic env', text: `export ANTHROPIC_API_KEY=${keys.anthropic}`, secret: keys.anthropic },
  { name: 'openai legacy', text: `OPENAI says ${keys.openai}`, secret: keys.openai, expected: 'OPENAI says sk-…' },
  { name: 'openai project', text: `"${keys.openaiProject}"`, secret: keys.openaiProject, expected: '"sk-proj-…"' },
  { name: 'google', text: `https://maps.googleapis.com/x?k=${keys.google}&v=3`, secret: keys.google, expected: 'https://maps.googleapis.com/x?k=AIza…&v=3' },
  { name: 'github pat', text: `git push https://${keys.githubPat}@github.com/a/b.git`, secret: keys.githubPat },
  { name: 'github oauth', text: `token ${keys.githubOauth}`, secret: keys.githubOauth, expected: 'token gho_…' },
  { name: 'github server', text: `GH=${keys.githubServer}`, secret: keys.githubServer },
  { name: 'github fine-grained', text: `  ${keys.githubFine}  `, secret: keys.githubFine, expected: '  github_pat_…  ' },
  { name: 'gitlab', text: `git clone https://oauth2:${keys.gitlab}@gitlab.com/g/p.git`, secret: keys.gitlab },
  { name: 'slack bot', text: `SLACK_BOT=${keys.slackBot}`, secret: keys.slackBot },
  { name: 'slack user', text: `using ${keys.slackUser} now`, secret: keys.slackUser, expected: 'using xoxp-… now' },
  { name: 'aws key id', text: `aws_access_key_id = ${keys.awsKeyId}`, secret: keys.awsKeyId, expected: 'aws_access_key_id = AKIA…' },
  { name: 'aws secret ini', text: `aws_secret_access_key = ${keys.awsSecret}`, secret: keys.awsSecret, expected: 'aws_secret_access_key = …' },
  { name: 'aws secret env', text: `AWS_SECRET_ACCESS_KEY=${keys.awsSecret}`, secret: keys.awsSecret },
  { name: 'aws sts json', text: `"SecretAccessKey": "${keys.awsSecret}",`, secret: keys.awsSecret },
  { name: 'stripe', text: `stripe.api_key = "${keys.stripe}"`, secret: keys.stripe },
  { name: 'stripe restricted', text: `${keys.stripeRestricted}`, secret: keys.stripeRestricted, expected: 'rk_live_…' },
  { name: 'hugging face', text: `HF: ${keys.huggingface}`, secret: keys.huggingface, expected: 'HF: hf_…' },
  { name: 'jwt', text: `session=${keys.jwt}; Path=/`, secret: keys.jwt },
  { name: 'jwt bare', text: `got ${keys.jwt}`, secret: keys.jwt, expected: 'got eyJ…' },
  { name: 'bearer curl', text: `curl -H 'Authorization: Bearer ${keys.openai}' api`, secret: keys.openai, expected: "curl -H 'Authorization: Bearer …' api" },
  { name: 'bearer opaque', text: 'Bearer 0f3c9a7e2b1d4c6a', secret: '0f3c9a7e2b1d4c6a', expected: 'Bearer …' },
  { name: 'basic auth header', text: 'Authorization: Basic dXNlcjpodW50ZXJ0d28=', secret: 'dXNlcjpodW50ZXJ0d28=', expected: 'Authorization: Basic …' },
  { name: 'api key header', text: `-H "x-api-key: ${fakeBody(32, 23)}"`, secret: fakeBody(32, 23) },
  { name: 'env password', text: 'DB_PASSWORD=hunter2!x', secret: 'hunter2!x', expected: 'DB_PASSWORD=…' },
  { name: 'export token', text: 'export GITHUB_TOKEN=abc123def456', secret: 'abc123def456' },
  { name: 'double quoted', text: 'PASSWORD="correct horse battery"', secret: 'correct horse battery', expected: 'PASSWORD="…"' },
  { name: 'single quoted', text: "secret='Zq8!vv#2'", secret: 'Zq8!vv#2', expected: "secret='…'" },
  { name: 'url query', text: 'GET /cb?code=7&access_token=abcXYZ9876&state=q', secret: 'abcXYZ9876', expected: 'GET /cb?code=7&access_token=…&state=q' },
  { name: 'url pass param', text: 'https://h/login?user=ada&pass=Pa55word', secret: 'Pa55word' },
  { name: 'json secret', text: '{"client_secret": "abc\\"XYZ123", "id": 4}', secret: 'XYZ123', expected: '{"client_secret": "…", "id": 4}' },
  { name: 'json camel', text: '{"accessToken":"q1w2e3r4t5"}', secret: 'q1w2e3r4t5' },
  { name: 'yaml', text: '  password: s3cretValue', secret: 's3cretValue', expected: '  password: …' },
  { name: 'yaml list item', text: '- api_key: zzTop777', secret: 'zzTop777' },
  { name: 'passwd prompt', text: 'passwd: hunter2', secret: 'hunter2', expected: 'passwd: …' },
  { name: 'toml', text: 'api_key = "xyz789abc"', secret: 'xyz789abc' },
  { name: 'flag with space', text: 'mysql --password Tr0ub4dor -h db', secret: 'Tr0ub4dor', expected: 'mysql --password … -h db' },
  { name: 'flag with equals', text: 'tool --api-token=abcd1234efgh', secret: 'abcd1234efgh' },
  { name: 'url credentials', text: 'postgres://app:Sup3rS3cret@db:5432/app', secret: 'Sup3rS3cret', expected: 'postgres://app:…@db:5432/app' },
  { name: 'url credentials, empty user', text: 'redis://:p4ssw0rd99@localhost:6379/0', secret: 'p4ssw0rd99' },
  { name: 'url credentials https', text: 'see https://bob:hunter22@example.com/x', secret: 'hunter22', expected: 'see https://bob:…@example.com/x' },
  {
    name: 'key split by SGR',
    text: `${SGR_GREEN}${keys.anthropic.slice(0, 20)}${SGR_BOLD}${keys.anthropic.slice(20)}${SGR_RESET} ok`,
    secret: keys.anthropic,
    expected: `${SGR_GREEN}sk-ant-…${SGR_BOLD}${SGR_RESET} ok`,
  },
  { name: 'assignment coloured', text: `${SGR_BOLD}TOKEN${SGR_RESET}=${SGR_GREEN}ab12cd34${SGR_RESET}`, secret: 'ab12cd34', expected: `${SGR_BOLD}TOKEN${SGR_RESET}=${SGR_GREEN}…${SGR_RESET}` },
  { name: 'hyperlink target', text: `\x1b]8;;https://u:pw12345@h/\x1b\\link\x1b]8;;\x1b\\`, secret: 'pw12345', expected: `\x1b]8;;https://u:…@h/\x1b\\link\x1b]8;;\x1b\\` },
  { name: 'pem block', text: [BEGIN, ...pemBody, END, 'after'].join('\n'), secret: pemBody[1] ?? '', expected: [BEGIN, '…', '…', '…', END, 'after'].join('\n') },
  { name: 'pem cut at the bottom', text: ['$ cat id_rsa', BEGIN, ...pemBody.slice(0, 2)].join('\n'), secret: pemBody[1] ?? '' },
  { name: 'pem cut at the top', text: [...pemBody.slice(1), END, '$ '].join('\n'), secret: pemBody[1] ?? '', expected: ['…', '…', END, '$ '].join('\n') },
  { name: 'pem in json', text: `"private_key": "${p('-----BEGIN ', 'PRIVATE KEY-----')}\\n${pemBody[0]}\\n${p('-----END ', 'PRIVATE KEY-----')}\\n",`, secret: pemBody[0] ?? '' },
  { name: 'pem coloured, CRLF', text: [`${SGR_GREEN}${BEGIN}${SGR_RESET}\r`, `${SGR_GREEN}${pemBody[0]}${SGR_RESET}\r`].join('\n'), secret: pemBody[0] ?? '', expected: [`${SGR_GREEN}${BEGIN}${SGR_RESET}\r`, `${SGR_GREEN}…${SGR_RESET}\r`].join('\n') },
];

/** Text that holds no secret and must come back byte for byte. */
export const negatives: readonly string[] = [
  'const token = await getToken();',
  'if (password === confirm) return ok;',
  'interface Login { user: string; password: string; token?: string | null }',
  '  password: string;',
  '  token: string | null',
  '  token: process.env.GITHUB_TOKEN',
  '  token: ${{ secrets.GITHUB_TOKEN }}',
  'export PGPASSWORD="$DB_PASS"',
  'PASSWORD=$(cat /run/secrets/db)',
  'api_key = os.environ["API_KEY"]',
  'password = input("Password: ")',
  'log("token: " + token + " done")',
  'fetch(url, { credentials: "include", headers: { Authorization: `Bearer ${token}` } })',
  'max_tokens=4096 TOKEN_LIMIT=8 tokenizer=bpe',
  'PWD=/home/ada/src/collie',
  'HOME=/home/ada PATH=/usr/local/bin:/usr/bin:/bin',
  '--bypass=true --secrets-file=/etc/app/secrets.env',
  '<input type="password" name="password" autocomplete="current-password">',
  'commit 3f9a1c2b7e4d5f60718293a4b5c6d7e8f9012345',
  'a1b2c3d Merge branch feature/token-refresh into main',
  'uuid 123e4567-e89b-12d3-a456-426614174000',
  '/home/ada/.ssh/id_rsa /etc/ssl/private/server.key ~/.config/collie/.env',
  'node_modules/@anthropic-ai/claude-code/cli.js',
  'packages/bridge/src/auth/token-store.ts:42:7',
  'Rotate the API token every 90 days; never paste a password into chat.',
  'Bearer tokens are sent in the Authorization header.',
  'Authorization: the act of granting access.',
  'The secret: nobody reads the manual',
  'risk-assessment-2024-final-version-two and desk-lamp-0000000000000000',
  'sha256:9f86d081884c7d659a2feaeb15d0d1c5d9a7a36bf3b4e5d7c3b10e1fb27a7c11',
  'git@github.com:ada/collie.git',
  'http://localhost:8787/api/snapshot ssh://git@host:22/repo',
  'hf_hub_download(repo_id="gpt2")',
  'npm warn deprecated inflight@1.0.6: This module is not supported',
  'total 48\ndrwx------  2 ada ada 4096 Jan  1 12:00 .ssh',
  '\x1b[1m\x1b[32m✓\x1b[0m packages/bridge/src/redact (12 tests) \x1b[2m34ms\x1b[0m',
  'Enter password:',
  'password_hash=bcrypt token_type=bearer',
  '-----BEGIN PUBLIC KEY-----',
  '-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n-----END CERTIFICATE-----',
];
