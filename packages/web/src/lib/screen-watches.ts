import type { PaneScreen } from '@collie/protocol';
import { Watches } from './watches';

/** Which panes' screens someone on the page is looking at, and their last frame. */
export class ScreenWatches extends Watches<PaneScreen> {
  frame(id: string): PaneScreen | null {
    return this.value(id);
  }

  /** Keeps a frame for a watched pane and tells its watchers; frames nobody watches are ignored. */
  deliver(frame: PaneScreen): void {
    this.update(frame.id, () => frame);
  }
}
