import { ErrorBody } from '@collie/protocol';
import type { z } from 'zod';

/** A bridge call's answer as a value: the parsed body, or the bridge's error code and words. */
export type BridgeResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly code: string; readonly message: string };

/**
 * One JSON call to the bridge, its answer parsed with the protocol's schema; never throws. A
 * `POST` sends `body` as JSON. The error's words lose their `subsystem: ` prefix (the page says
 * where it is).
 *
 * @example
 * const r = await bridgeJson('/api/new', NewOptions);
 * if (r.ok) show(r.value.folders); else say(r.message);
 */
export async function bridgeJson<S extends z.ZodType>(url: string, schema: S, body?: unknown): Promise<BridgeResult<z.output<S>>> {
  try {
    const response = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      cache: 'no-store',
    });
    const json: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = ErrorBody.safeParse(json);
      return error.success ? { ok: false, code: error.data.error.code, message: error.data.error.message.replace(/^[a-z]+: /, '') } : { ok: false, code: `http_${response.status}`, message: `the bridge answered ${response.status}` };
    }
    const parsed = schema.safeParse(json);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, code: 'invalid', message: 'the bridge answered with something this page cannot read' };
  } catch (error) {
    return { ok: false, code: 'network', message: `no answer from the bridge (${error instanceof Error ? error.message : String(error)})` };
  }
}
