/** `collie walky …` arguments, parsed without I/O. A wrong command line is a usage error (exit 2). */
export type WalkyArgs =
  | { verb: 'who'; json: boolean }
  | { verb: 'send'; json: boolean; to: string; text: string | null }
  | { verb: 'reply'; json: boolean; id: string; text: string | null }
  | { verb: 'inbox'; json: boolean; id: string | null; all: boolean; keep: boolean }
  | { verb: 'status'; json: boolean; id: string };

export const USAGE = `usage: collie walky <verb> [--json]
  who                          list the agent panes you can reach
  send <address> [text]        send a message (the body from stdin when no text is given)
  reply <id> [text]            answer a message, to the pane it came from
  inbox [<id>] [--all] [--keep] read this pane's messages
  status <id>                  look up a message's receipt`;

const FLAGS: Record<WalkyArgs['verb'], readonly string[]> = {
  who: ['--json'],
  send: ['--json'],
  reply: ['--json'],
  inbox: ['--json', '--all', '--keep'],
  status: ['--json'],
};

export function parseWalkyArgs(argv: readonly string[]): WalkyArgs | null {
  const [verb, ...rest] = argv;
  if (verb !== 'who' && verb !== 'send' && verb !== 'reply' && verb !== 'inbox' && verb !== 'status') return null;
  const flags = new Set<string>();
  const words: string[] = [];
  let literal = false;
  for (const a of rest) {
    if (!literal && a === '--') literal = true;
    else if (!literal && a.startsWith('--')) {
      if (!FLAGS[verb].includes(a)) return null;
      flags.add(a);
    } else words.push(a);
  }
  const json = flags.has('--json');
  const text = (from: number) => (words.length > from ? words.slice(from).join(' ') : null);
  switch (verb) {
    case 'who':
      return words.length === 0 ? { verb, json } : null;
    case 'send':
      return words[0] ? { verb, json, to: words[0], text: text(1) } : null;
    case 'reply':
      return words[0] ? { verb, json, id: words[0], text: text(1) } : null;
    case 'inbox':
      return words.length <= 1 ? { verb, json, id: words[0] ?? null, all: flags.has('--all'), keep: flags.has('--keep') } : null;
    case 'status':
      return words.length === 1 ? { verb, json, id: words[0]! } : null;
  }
}
