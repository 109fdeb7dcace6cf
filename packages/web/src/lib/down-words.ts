import type { Down } from './events-client';

/** The banner's words while the stream is down. Pure; `clock` formats an epoch ms as HH:MM. */
export interface DownWords {
  readonly title: string;
  readonly detail: string;
}

export function downWords(down: Down, clock: (ms: number) => string): DownWords {
  const at = clock(down.since);
  const kept = `This is the last view, from ${at}; your agents keep running.`;
  switch (down.why) {
    case 'stopped':
      return { title: `The bridge stopped at ${at}`, detail: `${kept} Start it again with collie start.` };
    case 'offline':
      return { title: `Offline since ${at}`, detail: `This phone has no network. ${kept}` };
    case 'lost':
      return { title: `Offline since ${at}`, detail: `Can't reach the bridge. ${kept}` };
  }
}

/** HH:MM in the phone's own locale and zone. */
export function clockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}
