import { PushStatus, PushTestResult, type PushPrefs, type PushSubscriptionJson } from '@collie/protocol';
import { call, post, type DevicesResult } from '../devices-api';

/** `GET /api/push`: the bridge's public key, this device's subscriptions, the settings. */
export const fetchPushStatus = () => call('/api/push', (b) => PushStatus.safeParse(b).data ?? null);

export const sendSubscription = (subscription: PushSubscriptionJson) =>
  call('/api/push/subscribe', (b) => PushStatus.safeParse(b).data ?? null, post({ subscription }));

export const dropSubscription = (endpoint: string) => call('/api/push/unsubscribe', (b) => PushStatus.safeParse(b).data ?? null, post({ endpoint }));

export const savePrefs = (prefs: PushPrefs) => call('/api/push/prefs', (b) => PushStatus.safeParse(b).data ?? null, post({ prefs }));

export const sendTestPush = (): Promise<DevicesResult<PushTestResult>> => call('/api/push/test', (b) => PushTestResult.safeParse(b).data ?? null, post({}));

/** The app is visible now (or just went away): no push while someone looks. */
export const reportPresence = (visible: boolean) => call('/api/push/presence', () => true, post({ visible }));
