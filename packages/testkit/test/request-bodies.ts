/**
 * Request bodies shaped like the ones Claude Code 2.1.334 sends (logged December 2026),
 * cut down to the fields the scripted API reads.
 */

const reminder = { type: 'text', text: '<system-reminder>\nAttribution for git commits …\n</system-reminder>\n' };
const tools = ['Agent', 'AskUserQuestion', 'Bash', 'Edit', 'Read', 'Write'].map((name) => ({ name, description: name, input_schema: { type: 'object' } }));

/** A main-conversation turn; `content` is the prompt text or the user message's blocks. */
export function mainBody(content: string | object[]): object {
  const blocks = typeof content === 'string' ? [reminder, { type: 'text', text: content }] : content;
  return {
    model: 'claude-opus-5-5',
    max_tokens: 128000,
    system: [
      { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.334.f25; cc_entrypoint=cli;' },
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
    ],
    tools,
    messages: [
      { role: 'user', content: blocks },
      { role: 'system', content: [{ type: 'text', text: '# Environment' }] },
    ],
  };
}

/** A sub-agent's turn: a tool list, and `cc_is_subagent=true` in the billing block. */
export function subagentBody(prompt: string): object {
  return {
    model: 'claude-opus-5-5',
    max_tokens: 128000,
    system: [
      { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.334.7d9; cc_entrypoint=cli; cc_is_subagent=true;' },
      { type: 'text', text: "You are a Claude agent, built on Anthropic's Claude Agent SDK." },
    ],
    tools: tools.slice(2),
    messages: [{ role: 'user', content: [reminder, { type: 'text', text: prompt }] }],
  };
}

/** The `/rename` side call: no tools, a small model, a JSON schema to answer in. */
export function sideBody(): object {
  return {
    model: 'claude-haiku-5-5',
    max_tokens: 128000,
    system: [
      { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.334.5ab; cc_entrypoint=cli;' },
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
      { type: 'text', text: 'Generate a short kebab-case name (2-4 words) …' },
    ],
    tools: [],
    messages: [{ role: 'user', content: [{ type: 'text', text: '<conversation>\nfirst prompt\n</conversation>' }] }],
    output_config: {
      effort: 'medium',
      format: { type: 'json_schema', schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    },
  };
}
