import type { Page, WebSocketRoute } from 'playwright-core';

/** A valve on the page's events socket: what the bridge says can be held back, then let through. */
export interface EventsValve {
  /** From now on, the bridge's messages wait here instead of reaching the page. */
  hold(): void;
  /** Delivers what waited, in order, and lets the stream flow again. */
  release(): void;
}

/**
 * Routes the page's `/api/events` socket through the test, straight to the real bridge. While
 * held, the page keeps showing what it last heard, as a phone does on a slow network, so a
 * test can change the pane underneath it.
 *
 * @example
 * const valve = await holdEvents(page);
 * valve.hold();   // the page's card goes stale
 * valve.release();
 */
export async function holdEvents(page: Page): Promise<EventsValve> {
  let held: Array<string | Buffer> | null = null;
  let current: WebSocketRoute | null = null;
  await page.routeWebSocket(/\/api\/events/, (ws) => {
    current = ws;
    const bridge = ws.connectToServer();
    bridge.onMessage((message) => {
      if (held !== null && ws === current) held.push(message);
      else ws.send(message);
    });
    ws.onMessage((message) => bridge.send(message));
  });
  return {
    hold: () => void (held ??= []),
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const message of waiting) current?.send(message);
    },
  };
}
