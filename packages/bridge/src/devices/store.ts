/**
 * `<state>/devices.json` (0600, written atomically): the devices and pairing offers, kept in
 * memory and written before any answer that depends on it, so a `kill -9` right after a
 * pairing or a revocation keeps it. Only hashes of tokens and codes are stored.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readFile, rename as renameFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Device, type DeviceKind, DevicesFile, type PairingOffer, type StoredDevice } from '@collie/protocol';
import { writeFileAtomic } from '../config';
import * as core from './core';
import { type RandomBytes, sha256 } from './secrets';

export interface DeviceStoreDeps {
  now?: () => number;
  random?: RandomBytes;
}

/** Who a token belongs to, or why it is refused. */
export type TokenCheck = { ok: true; device: StoredDevice } | { ok: false; code: 'unauthorized' | 'device_revoked'; message: string };

/** Last-seen times are written at most this often (they are a hint, not a record). */
const LAST_SEEN_FLUSH_MS = 60_000;

export function devicesFile(stateDir: string): string {
  return join(stateDir, 'devices.json');
}

export function toDevice(d: StoredDevice, currentId: string | null): Device {
  return { id: d.id, name: d.name, kind: d.kind, pairedAt: d.pairedAt, lastSeen: d.lastSeen, current: d.id === currentId, maySend: d.maySend };
}

export class DeviceStore extends EventEmitter<{ revoked: [id: string]; changed: [id: string] }> {
  #state: DevicesFile;
  #byHash = new Map<string, StoredDevice>();
  #writing: Promise<void> = Promise.resolve();
  #seenTimer: NodeJS.Timeout | null = null;
  readonly #path: string;
  readonly now: () => number;
  readonly #random: RandomBytes;

  private constructor(path: string, state: DevicesFile, deps: DeviceStoreDeps) {
    super();
    this.#path = path;
    this.now = deps.now ?? Date.now;
    this.#random = deps.random ?? ((n) => randomBytes(n));
    this.#state = state;
    this.#index();
  }

  /**
   * Reads the file, or starts empty. A file that does not parse is moved aside and every
   * device must pair again: failing closed beats trusting a damaged list.
   */
  static async open(stateDir: string, deps: DeviceStoreDeps = {}, warn: (line: string) => void = () => undefined): Promise<DeviceStore> {
    const path = devicesFile(stateDir);
    const random = deps.random ?? ((n: number) => randomBytes(n));
    let state: DevicesFile | null = null;
    let text: string | null = null;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`devices: cannot read ${path}: ${(err as Error).message}`);
    }
    if (text !== null) {
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        /* parsed below as invalid */
      }
      const parsed = DevicesFile.safeParse(json);
      if (parsed.success) state = parsed.data;
      else {
        const aside = `${path}.bad-${Date.now()}`;
        await renameFile(path, aside);
        warn(`devices: ${path} was unreadable; moved to ${aside}; pair your devices again`);
      }
    }
    const store = new DeviceStore(path, state ?? core.emptyState(random), deps);
    if (state === null) await store.#save();
    return store;
  }

  /** The cookie that carries this state dir's device token. */
  get cookieName(): string {
    return `collie_device_${this.#state.instance}`;
  }

  get activeCount(): number {
    return core.active(this.#state).length;
  }

  list(currentId: string | null = null): Device[] {
    return core.active(this.#state).map((d) => toDevice(d, currentId));
  }

  /** Looks a bearer or cookie token up by its hash. */
  check(token: string): TokenCheck {
    const d = this.#byHash.get(sha256(token));
    if (!d) return { ok: false, code: 'unauthorized', message: 'bridge: this device is not paired (unknown token); pair it again' };
    if (d.revokedAt !== null) return { ok: false, code: 'device_revoked', message: 'bridge: this device was removed; pair it again' };
    return { ok: true, device: d };
  }

  /** Notes a device's request; written out within a minute. */
  touch(d: StoredDevice): void {
    d.lastSeen = this.now();
    this.#seenTimer ??= setTimeout(() => {
      this.#seenTimer = null;
      void this.#save().catch(() => undefined);
    }, LAST_SEEN_FLUSH_MS).unref();
  }

  /** A pairing offer; `maySend` false: the device that redeems it is watch-only. */
  async createOffer(maySend = true): Promise<PairingOffer> {
    const { state, offer } = core.createOffer(this.#state, this.now(), this.#random, maySend);
    await this.#commit(state);
    return offer;
  }

  /** Redeems a code or link; on success the new device and its token (for the cookie). */
  async redeem(input: { code: string } | { token: string }, name: string): Promise<core.RedeemOutcome & { device?: StoredDevice; token?: string }> {
    const out = core.redeem(this.#state, input, this.now());
    if (!out.ok) {
      if (out.state !== this.#state) await this.#commit(out.state);
      return out;
    }
    const added = core.addDevice(out.state, { name, kind: 'browser', maySend: out.maySend }, this.now(), this.#random);
    await this.#commit(added.state);
    return { ...out, device: added.device, token: added.token };
  }

  async addDevice(name: string, kind: DeviceKind, maySend = true): Promise<{ device: StoredDevice; token: string }> {
    const added = core.addDevice(this.#state, { name, kind, maySend }, this.now(), this.#random);
    await this.#commit(added.state);
    return added;
  }

  find(idOrName: string): StoredDevice | null {
    return core.findDevice(this.#state, idOrName);
  }

  /** Revokes and tells listeners at once (open sockets of that device close). */
  async revoke(id: string): Promise<void> {
    await this.#commit(core.revoke(this.#state, id, this.now()));
    this.emit('revoked', id);
  }

  /**
   * Sets a device's send right, written before it answers; listeners hear of a change at once
   * (its open event sockets reconnect and read the new right in their hello). False: no change.
   */
  async setRight(id: string, maySend: boolean): Promise<boolean> {
    const d = this.#state.devices.find((x) => x.id === id && x.revokedAt === null);
    if (!d || d.maySend === maySend) return false;
    await this.#commit(core.setRight(this.#state, id, maySend));
    this.emit('changed', id);
    return true;
  }

  /** False when another device already has that name. */
  async rename(id: string, name: string): Promise<boolean> {
    const next = core.rename(this.#state, id, name);
    if (!next) return false;
    await this.#commit(next);
    return true;
  }

  async close(): Promise<void> {
    if (this.#seenTimer) clearTimeout(this.#seenTimer);
    this.#seenTimer = null;
    await this.#save();
  }

  async #commit(next: DevicesFile): Promise<void> {
    this.#state = next;
    this.#index();
    await this.#save();
  }

  #index(): void {
    this.#byHash = new Map(this.#state.devices.map((d) => [d.hash, d]));
  }

  /** Writes one after another; each write takes the state as it is when it runs. */
  #save(): Promise<void> {
    const run = this.#writing.then(() => writeFileAtomic(this.#path, `${JSON.stringify(this.#state, null, 1)}\n`, 0o600));
    this.#writing = run.catch(() => undefined);
    return run;
  }
}
