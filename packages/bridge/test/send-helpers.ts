import { expect } from 'vitest';
import { ReceiptBody, type SendReceipt } from '@collie/protocol';
import type { Bridge } from '../src/bridge';
import { type TestBridge, until } from './harness';

/** POST a JSON body to the bridge; returns the receipt. */
export async function call(bridge: TestBridge, paneId: string, verb: 'send' | 'keys' | 'answer' | 'box', body: unknown): Promise<SendReceipt> {
  const res = await fetch(`${bridge.url}/api/panes/${encodeURIComponent(paneId)}/${verb}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bridge.device.headers },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ReceiptBody.parse(await res.json()).receipt;
}

/** The receipt once it is final, from the hub's events (a gone pane's ended send is on its event only). */
export function finalReceipt(bridge: Bridge, requestId: string, ms = 30_000): Promise<SendReceipt> {
  const mine = (r: SendReceipt) => r.requestId === requestId && r.final;
  return until(bridge.hub, `receipt ${requestId} to be final`, (h, e) => (e?.type === 'send.updated' && mine(e.receipt) ? e.receipt : [...h.sends.values()].flat().find(mine)), ms);
}
