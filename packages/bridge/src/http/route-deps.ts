import type { Pane } from '@collie/protocol';
import type { SendService } from '../send/send-service';

/**
 * What the pane, send and cancel routes need of the app's deps (AppDeps extends it): a file of
 * its own, so the routes and app.ts import it and app.ts alone imports the routes.
 */
export interface PaneRouteDeps {
  pane: (id: string) => Pane | undefined;
  markSeen: (id: string) => Pane | undefined;
  sends: Pick<SendService, 'send' | 'keys' | 'answer' | 'cancel' | 'box'>;
  /** Whether a request id already has a receipt here: the same request again is answered from it after its pane closed. */
  knownRequest?: (requestId: string) => boolean;
}
