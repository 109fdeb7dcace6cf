import { join } from 'node:path';
import { startTmux, type TmuxServer } from '@collie/testkit';
import { Started, webWork, type WebWork } from './phone-rig';

export { formCrew } from '../../bridge/test/crew-join';

/**
 * The crew phone-test rig: the machines of a crew on this one. The work dir with the web app
 * built, and for each machine (the lead first) a private tmux server and a state dir below the
 * work dir, stopped last first. The test puts its panes in each tmux, starts each machine's
 * `crewBridge` and forms the crew with {@link formCrew}.
 */
export interface CrewWork<N extends readonly string[]> extends AsyncDisposable {
  readonly work: WebWork;
  readonly dist: string;
  /** Each machine's tmux server, in the order of the names. */
  readonly tmux: { -readonly [K in keyof N]: TmuxServer };
  /** Each machine's state dir (`<work>/<name>`), in the order of the names. */
  readonly states: { -readonly [K in keyof N]: string };
}

/** Starts a {@link CrewWork} for the machines named (`['lead', 'alpha', 'beta']`). */
export async function crewWork<const N extends readonly string[]>(prefix: string, machines: N): Promise<CrewWork<N>> {
  const started = new Started();
  return started.guard(async () => {
    const work = started.use(await webWork(prefix));
    const tmux: TmuxServer[] = [];
    for (const _ of machines) tmux.push(started.use(await startTmux()));
    const states = machines.map((n) => join(work.path, n));
    return {
      work,
      dist: work.dist,
      tmux: tmux as { -readonly [K in keyof N]: TmuxServer },
      states: states as { -readonly [K in keyof N]: string },
      [Symbol.asyncDispose]: () => started[Symbol.asyncDispose](),
    };
  });
}
