import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_PUSH_PREFS, PushPrefs, PushSubscriptionJson } from '@collie/protocol';
import { writeFileAtomic } from '../config';
import { pushDir } from './keys';

/** One subscription as kept: the browser's JSON and the device that handed it over. */
const Kept = z.object({ device: z.string(), subscription: PushSubscriptionJson, addedAt: z.number() });
export type KeptSubscription = z.infer<typeof Kept>;
const File = z.object({ subscriptions: z.array(Kept).max(10_000), prefs: PushPrefs });

/** More than any one person's phones and browsers; a flood of subscribes cannot grow the file. */
export const MAX_SUBSCRIPTIONS = 1_000;

/**
 * `<state>/push/subscriptions.json` (0600, written atomically before a route answers): the
 * subscriptions, one per endpoint, and the push settings. The endpoints are capability URLs
 * (anyone holding one with its keys can push to that phone), hence 0600.
 */
export class PushStore {
  private subs: KeptSubscription[] = [];
  prefs: PushPrefs = DEFAULT_PUSH_PREFS;
  private saving: Promise<void> = Promise.resolve();

  private constructor(private readonly file: string) {}

  static async open(stateDir: string): Promise<PushStore> {
    await mkdir(pushDir(stateDir), { recursive: true, mode: 0o700 });
    const s = new PushStore(join(pushDir(stateDir), 'subscriptions.json'));
    try {
      const parsed = File.safeParse(JSON.parse(await readFile(s.file, 'utf8')));
      if (parsed.success) {
        s.subs = parsed.data.subscriptions;
        s.prefs = parsed.data.prefs;
      }
    } catch {
      // no file yet: nobody subscribed
    }
    return s;
  }

  get all(): readonly KeptSubscription[] {
    return this.subs;
  }

  ofDevice(device: string): KeptSubscription[] {
    return this.subs.filter((s) => s.device === device);
  }

  /** Adds or refreshes (a browser re-subscribing keeps its endpoint, maybe with new keys). */
  async add(device: string, subscription: PushSubscriptionJson, now: number): Promise<boolean> {
    const rest = this.subs.filter((s) => s.subscription.endpoint !== subscription.endpoint);
    if (rest.length >= MAX_SUBSCRIPTIONS) return false;
    this.subs = [...rest, { device, subscription, addedAt: now }];
    await this.save();
    return true;
  }

  /** Drops one endpoint (the push service said 404/410, or the phone unsubscribed); true when it was there. */
  async remove(endpoint: string, device?: string): Promise<boolean> {
    const keep = this.subs.filter((s) => s.subscription.endpoint !== endpoint || (device !== undefined && s.device !== device));
    if (keep.length === this.subs.length) return false;
    this.subs = keep;
    await this.save();
    return true;
  }

  /** A revoked device's subscriptions go with it. */
  async removeDevice(device: string): Promise<void> {
    if (!this.subs.some((s) => s.device === device)) return;
    this.subs = this.subs.filter((s) => s.device !== device);
    await this.save();
  }

  async setPrefs(prefs: PushPrefs): Promise<void> {
    this.prefs = prefs;
    await this.save();
  }

  flush(): Promise<void> {
    return this.saving;
  }

  private save(): Promise<void> {
    const body = JSON.stringify({ subscriptions: this.subs, prefs: this.prefs });
    this.saving = this.saving.then(() => writeFileAtomic(this.file, body, 0o600));
    return this.saving;
  }
}
