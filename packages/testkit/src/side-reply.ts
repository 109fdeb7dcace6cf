import type { ApiRequest } from './messages-request';
import type { Turn } from './messages-wire';

/**
 * The default answer to a side call: something the CLI accepts, so it never retries or
 * shows an error. Structured calls (`/rename` names, session titles) get JSON matching
 * their schema; forks get what their caller expects: no prompt suggestion, a one-line
 * recap or progress label, a `<summary>` for /compact.
 *
 * @example
 * const api = await startMessagesApi({ side: (req) => (req.outputSchema ? sideReply(req) : plainText('…')) });
 */
export function sideReply(req: ApiRequest): Turn {
  if (req.outputSchema !== undefined) return text(JSON.stringify(sample(req.outputSchema, '')));
  const last = req.prompt;
  if (last.includes('[SUGGESTION MODE:')) return text('');
  if (last.includes('The user stepped away')) return text('Scripted session: the last turn finished; nothing is waiting.');
  if (last.includes('most recent action')) return text('Working on the scripted task');
  if (last.includes('CRITICAL: Respond with TEXT ONLY')) return text('<summary>A scripted conversation.</summary>');
  return text('Scripted side answer.');
}

function text(t: string): Turn {
  return { blocks: [{ type: 'text', text: t }] };
}

/** A value of a JSON schema, good enough for the CLI's own schemas (objects of strings). */
function sample(schema: unknown, key: string): unknown {
  const s = (schema && typeof schema === 'object' ? schema : {}) as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  switch (s.type) {
    case 'object': {
      const props = (s.properties && typeof s.properties === 'object' ? s.properties : {}) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sample(v, k)]));
    }
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    default:
      return /title/i.test(key) ? 'Scripted session' : 'scripted-session';
  }
}
