import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Hono } from 'hono';
import { QuickReplies } from '@collie/protocol';
import { writeFileAtomic } from '../../config';
import { ApiError, fail } from '../../http/api-error';
import { body } from '../../http/routes/sends';

/** The replies the phone shows before any are saved. */
const DEFAULTS: QuickReplies = {
  replies: [
    { label: 'Continue', text: 'Continue.' },
    { label: 'Run the tests', text: 'Run the tests and fix what fails.' },
    { label: 'Commit', text: 'Commit what you have with a clear message.' },
  ],
};

/**
 * `GET /api/quick-replies` and `POST /api/quick-replies`: saved one-tap texts in
 * `<config>/quick-replies.json` (0600, written atomically). A tap sends one through the send
 * protocol (`/api/panes/:id/send`), like any text. A file that does not parse is reported,
 * never overwritten by a read.
 */
export function quickReplyRoutes(configDir: string | null): Hono {
  const r = new Hono();
  const dir = configDir;
  const file = dir ? join(dir, 'quick-replies.json') : null;
  r.get('/quick-replies', async (c) => {
    if (!file) return c.json(DEFAULTS);
    let raw: string;
    try {
      raw = await readFile(file, 'utf8');
    } catch {
      return c.json(DEFAULTS);
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return fail(c, new ApiError('conflict', `quick replies: ${file} is not valid JSON; fix or remove it`));
    }
    const parsed = QuickReplies.safeParse(json);
    return parsed.success ? c.json(parsed.data) : fail(c, new ApiError('conflict', `quick replies: ${file} does not match its schema (${parsed.error.issues[0]?.message ?? 'bad shape'})`));
  });
  r.post('/quick-replies', async (c) => {
    const b = await body(c, QuickReplies);
    if (b instanceof ApiError) return fail(c, b);
    if (!file || !dir) return fail(c, new ApiError('conflict', 'quick replies: this bridge has no config dir to save them in'));
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(file, `${JSON.stringify(b, null, 2)}\n`, 0o600);
    return c.json(b);
  });
  return r;
}
