import { PushSubscriptionJson } from '@collie/protocol';

/**
 * Where this browser stands on push. `needs-home-screen`: an iPhone or iPad offers push only
 * to a web app opened from the home screen (iOS 16.4+), never in a Safari tab.
 */
export type PushSupport = 'unsupported' | 'needs-home-screen' | 'insecure' | 'denied' | 'ask' | 'granted';

export interface BrowserFacts {
  hasServiceWorker: boolean;
  hasPushManager: boolean;
  hasNotification: boolean;
  permission: 'default' | 'denied' | 'granted' | null;
  secure: boolean;
  ios: boolean;
  standalone: boolean;
}

/** Pure: what the Settings page says, from what the browser has. */
export function pushSupport(f: BrowserFacts): PushSupport {
  if (f.ios && !f.standalone && !(f.hasPushManager && f.hasNotification)) return 'needs-home-screen';
  if (!f.secure) return 'insecure';
  if (!f.hasServiceWorker || !f.hasPushManager || !f.hasNotification) return 'unsupported';
  if (f.permission === 'denied') return 'denied';
  return f.permission === 'granted' ? 'granted' : 'ask';
}

export function browserFacts(): BrowserFacts {
  const nav = navigator as Navigator & { standalone?: boolean };
  return {
    hasServiceWorker: 'serviceWorker' in navigator,
    hasPushManager: 'PushManager' in window,
    hasNotification: 'Notification' in window,
    permission: 'Notification' in window ? Notification.permission : null,
    secure: window.isSecureContext,
    ios: /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1),
    standalone: nav.standalone === true || window.matchMedia('(display-mode: standalone)').matches,
  };
}

/** The VAPID public key (base64url) as the bytes `pushManager.subscribe` takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export type EnableResult = { ok: true; subscription: PushSubscriptionJson } | { ok: false; reason: 'denied' | 'dismissed' | 'no-worker' | 'failed'; message: string };

const within = <T,>(p: Promise<T>, ms: number): Promise<T | null> => Promise.race([p, new Promise<null>((r) => setTimeout(() => r(null), ms))]);

/**
 * Ask for permission and subscribe. Call it only from a tap: browsers (and people) refuse a
 * permission prompt that comes on load.
 */
export async function enablePush(publicKey: string): Promise<EnableResult> {
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return { ok: false, reason: 'denied', message: 'Notifications are blocked for this site. Allow them in the browser’s site settings.' };
  if (permission !== 'granted') return { ok: false, reason: 'dismissed', message: 'No permission was given. Tap again to be asked again.' };
  const reg = await within(navigator.serviceWorker.ready, 10_000);
  if (!reg) return { ok: false, reason: 'no-worker', message: 'The app’s service worker is not running; reload the page and try again.' };
  try {
    const existing = await reg.pushManager.getSubscription();
    const sub = existing ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
    const json = PushSubscriptionJson.safeParse(sub.toJSON());
    if (!json.success) return { ok: false, reason: 'failed', message: 'The browser gave a subscription Collie cannot read.' };
    return { ok: true, subscription: json.data };
  } catch (err) {
    return { ok: false, reason: 'failed', message: `The browser could not subscribe: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** This browser's subscription, if any (to turn push off). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!('serviceWorker' in navigator)) return null;
  const reg = await within(navigator.serviceWorker.getRegistration(), 3_000);
  return reg ? reg.pushManager.getSubscription() : null;
}
