import { WALKY_MAX_LINE, WalkyRequest, type WalkyAnswer, type WalkyErrorCode } from '@collie/protocol';

export type Parsed = { ok: true; req: WalkyRequest } | { ok: false; code: WalkyErrorCode; message: string };

/**
 * One request line from the socket, validated. Every failure is a value with a code and a
 * sentence that names what was wrong, never a throw.
 */
export function parseRequest(line: string): Parsed {
  if (line.length > WALKY_MAX_LINE) return { ok: false, code: 'too_large', message: `walky: a request is at most ${WALKY_MAX_LINE} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { ok: false, code: 'bad_json', message: 'walky: the request is not one line of JSON' };
  }
  const parsed = WalkyRequest.safeParse(json);
  if (parsed.success) return { ok: true, req: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  return { ok: false, code: 'bad_request', message: `walky: bad request: ${where}${issue?.message ?? 'invalid'}` };
}

export function errorAnswer(code: WalkyErrorCode, message: string): WalkyAnswer {
  return { ok: false, verb: 'error', error: { code, message } };
}
