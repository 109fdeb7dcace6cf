import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startBridge, type Bridge, type EventHub } from '@collie/bridge';
import { serve, type DurableAgent } from '@collie/durable-sdk';
import { launchChromium, phoneContext, testBridgeOptions, testDevice } from '@collie/testkit';
import { conversationKey, type DurableState } from '@collie/protocol';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildWeb } from './e2e-setup';

/**
 * A real bridge with durable agents in its sources.json (each a real SDK agent serving wire
 * v1 on a real socket), the web app built from its sources, and a paired phone at 390×844.
 */
export interface DurableRig extends AsyncDisposable {
  readonly bridge: Bridge;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Uncaught errors of the page. */
  readonly errors: string[];
}

export async function durableRig(dir: string, agents: readonly { name: string; address: string }[]): Promise<DurableRig> {
  const dist = join(dir, 'dist');
  await buildWeb(dist);
  const config = join(dir, 'config');
  await mkdir(config, { recursive: true });
  const sources = agents.map((a) => (a.address.startsWith('http') ? { name: a.name, url: a.address } : { name: a.name, socket: a.address }));
  await writeFile(join(config, 'tmp.json'), JSON.stringify({ agents: sources }));
  await rename(join(config, 'tmp.json'), join(config, 'sources.json'));
  const state = join(dir, 'state');
  const bridge = await startBridge(testBridgeOptions(join(dir, 'no-tmux'), state, { webDir: dist, configDir: config }));
  const browser = await launchChromium();
  const context = await phoneContext(browser, { baseURL: bridge.url });
  await context.addCookies([(await testDevice(state)).cookie(bridge.url)]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return {
    bridge,
    browser,
    context,
    page,
    errors,
    async [Symbol.asyncDispose]() {
      await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await bridge.stop();
    },
  };
}

/**
 * {@link durableRig} with one agent served on a socket in `dir` as `name`, the conversation
 * `conversation` seen by the bridge before it resolves; the agent's socket closes with the rig.
 */
export async function durableAgentRig(dir: string, name: string, agent: DurableAgent, conversation: string): Promise<DurableRig> {
  const listening = await serve(agent, { socket: sock(dir, name) });
  let rig: DurableRig | undefined;
  const stop = async () => {
    await rig?.[Symbol.asyncDispose]();
    await listening.close();
  };
  try {
    rig = await durableRig(dir, [{ name, address: listening.address }]);
    await untilDurable(rig.bridge.hub, `the ${name} conversation`, (d) => d.conversations.has(conversationKey(name, conversation)));
  } catch (error) {
    await stop();
    throw error;
  }
  return { bridge: rig.bridge, browser: rig.browser, context: rig.context, page: rig.page, errors: rig.errors, [Symbol.asyncDispose]: stop };
}

/** Resolves once the bridge's durable model passes `check` (checked now, then on every event). */
export function untilDurable(hub: EventHub, what: string, check: (d: DurableState) => boolean, ms = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (check(hub.durable)) return resolve();
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${what}`));
    }, ms);
    const off = hub.subscribe(() => {
      if (!check(hub.durable)) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

/** The socket path of a test agent in `dir`. */
export const sock = (dir: string, name: string) => join(dir, `${name}.sock`);
