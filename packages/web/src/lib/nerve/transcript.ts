import type { AgentTranscriptEvent } from '@collie/protocol';

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
const cut = (s: string, n = 2000) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** One transcript line in words (rendered as text nodes); null for lines the tab does not show. */
export function transcriptLine(e: AgentTranscriptEvent): { label: string; text: string } | null {
  const p = e.payload;
  switch (e.kind) {
    case 'text':
      return { label: 'Said', text: cut(str(p.text)) };
    case 'thinking':
      return { label: 'Thought', text: cut(str(p.text)) };
    case 'tool_call':
      return { label: str(p.name) || 'Tool', text: cut(str(p.input), 400) };
    case 'tool_result':
      return { label: p.is_error === true ? 'Error' : 'Result', text: cut(str(p.text)) };
    case 'progress':
      return p.summary ? { label: 'Progress', text: cut(str(p.summary), 400) } : null;
    case 'status':
      return { label: 'Status', text: `${str(p.status)}${p.reason ? ` (${str(p.reason)})` : ''}` };
    case 'usage':
      return null;
  }
}
