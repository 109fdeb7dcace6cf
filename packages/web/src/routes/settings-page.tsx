import { useCallback, useEffect, useState } from 'react';
import type { PushPrefs, PushStatus } from '@collie/protocol';
import { BackBar } from '../components/back-bar';
import { Notice } from '../components/notice';
import { QuickRepliesEditor } from '../components/workbench/quick-replies-editor';
import { useClientState } from '../hooks/use-client';
import { browserFacts, currentSubscription, enablePush, pushSupport, type PushSupport } from '../lib/push/browser-push';
import { dropSubscription, fetchPushStatus, savePrefs, sendSubscription, sendTestPush } from '../lib/push/push-api';

/** `later`: the setting is kept, but this bridge pushes nothing of that kind yet (docs/push.md). */
const KINDS: { key: keyof PushPrefs['kinds']; label: string; later?: true }[] = [
  { key: 'blocked', label: 'A pane waits on you' },
  { key: 'durable', label: 'A durable agent asks' },
  { key: 'messages', label: 'Messages to you (not pushed yet)', later: true },
  { key: 'finished', label: 'A turn finished' },
  { key: 'limit', label: 'A pane reached its usage limit' },
  { key: 'ready', label: 'Ready again, when a send waits for the reset' },
  { key: 'context', label: 'A pane’s context passed 90 %' },
];

const SUPPORT_WORDS: Record<Exclude<PushSupport, 'ask' | 'granted'>, { title: string; body: string }> = {
  'needs-home-screen': { title: 'Add Collie to your Home Screen first.', body: 'On an iPhone or iPad, push works only in the app opened from the Home Screen: tap Share, then Add to Home Screen, and open it from there.' },
  insecure: { title: 'Push needs https.', body: 'Open Collie through its https address (tailscale serve or your proxy) to turn push on.' },
  unsupported: { title: 'This browser does not support push.', body: 'Use a current Chrome, Firefox, Edge or Safari.' },
  denied: { title: 'Notifications are blocked for this site.', body: 'Allow them in the browser’s site settings, then come back here.' },
};

/** `#/settings`: push on or off for this device, per kind, quiet hours, a test push; the quick replies. */
export function SettingsPage() {
  const { connection } = useClientState();
  const [status, setStatus] = useState<PushStatus | null>(null);
  const [support, setSupport] = useState<PushSupport>(() => pushSupport(browserFacts()));
  const [message, setMessage] = useState<{ text: string; bad: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => void fetchPushStatus().then((r) => (r.ok ? setStatus(r.value) : setMessage({ text: r.message, bad: true }))), []);
  useEffect(load, [load]);

  // Asked only here, after a tap: never on load.
  const turnOn = async () => {
    if (!status?.publicKey) return;
    setBusy(true);
    const r = await enablePush(status.publicKey);
    setSupport(pushSupport(browserFacts()));
    if (!r.ok) setMessage({ text: r.message, bad: true });
    else {
      const sent = await sendSubscription(r.subscription);
      if (sent.ok) (setStatus(sent.value), setMessage({ text: 'Push is on for this device.', bad: false }));
      else setMessage({ text: sent.message, bad: true });
    }
    setBusy(false);
  };
  const turnOff = async () => {
    setBusy(true);
    const sub = await currentSubscription();
    if (sub) {
      const r = await dropSubscription(sub.endpoint);
      await sub.unsubscribe().catch(() => false);
      if (r.ok) setStatus(r.value);
    }
    setMessage({ text: 'Push is off for this device.', bad: false });
    setBusy(false);
    load();
  };
  const test = async () => {
    const r = await sendTestPush();
    setMessage(r.ok ? { text: r.value.sent > 0 ? 'Test push sent.' : 'No subscription of this device took it.', bad: r.value.sent === 0 } : { text: r.message, bad: true });
  };
  const change = async (prefs: PushPrefs) => {
    const r = await savePrefs(prefs);
    if (r.ok) setStatus(r.value);
    else setMessage({ text: r.message, bad: true });
  };

  const on = (status?.subscribed ?? 0) > 0;
  const words = support === 'ask' || support === 'granted' ? null : SUPPORT_WORDS[support];
  return (
    <>
      <BackBar connection={connection} />
      <main className="page settings">
        <h1 className="section-title">Settings</h1>
        <h2 className="settings-head">Push notifications</h2>
        {message ? (
          <p className={message.bad ? 'pair-error' : 'settings-ok'} role={message.bad ? 'alert' : 'status'}>
            {message.text}
          </p>
        ) : null}
        {status === null ? (
          <Notice title="Loading…" />
        ) : words ? (
          <div className="pair-reason" data-support={support}>
            <strong>{words.title}</strong> {words.body}
          </div>
        ) : status.publicKey === null ? (
          <p className="pair-note">
            Run <code>collie push keys</code> on the computer that runs Collie, then reload.
          </p>
        ) : (
          <div className="settings-row">
            <span>{on ? 'Push is on for this device.' : 'Get a notification when an agent waits on you.'}</span>
            {on ? (
              <button className="device-button" type="button" disabled={busy} onClick={() => void turnOff()}>
                Turn off
              </button>
            ) : (
              <button className="device-button settings-primary" type="button" disabled={busy} onClick={() => void turnOn()}>
                Turn on push
              </button>
            )}
          </div>
        )}
        {status ? <Prefs prefs={status.prefs} onChange={(p) => void change(p)} /> : null}
        {on ? (
          <button className="device-button" type="button" onClick={() => void test()}>
            Send a test push
          </button>
        ) : null}
        <QuickRepliesEditor />
      </main>
    </>
  );
}

function Prefs({ prefs, onChange }: { readonly prefs: PushPrefs; readonly onChange: (p: PushPrefs) => void }) {
  const [from, setFrom] = useState(prefs.quiet?.from ?? '22:00');
  const [to, setTo] = useState(prefs.quiet?.to ?? '07:00');
  return (
    <>
      <h2 className="settings-head">What pushes</h2>
      <ul className="settings-list">
        {KINDS.map((k) => (
          <li key={k.key}>
            <label className="settings-check">
              <input type="checkbox" disabled={k.later} checked={prefs.kinds[k.key]} onChange={(e) => onChange({ ...prefs, kinds: { ...prefs.kinds, [k.key]: e.target.checked } })} />
              {k.label}
            </label>
          </li>
        ))}
      </ul>
      <h2 className="settings-head">Lock screen</h2>
      <label className="settings-check">
        <input type="checkbox" checked={prefs.lockScreen} onChange={(e) => onChange({ ...prefs, lockScreen: e.target.checked })} />
        Answer permissions from the notification
      </label>
      <p className="pair-note">Deny on every permission push, and Allow only when the whole command or path is in the notification; a tap on it opens the ask. Always allow stays in the app.</p>
      <h2 className="settings-head">Quiet hours</h2>
      <label className="settings-check">
        <input type="checkbox" checked={prefs.quiet !== null} onChange={(e) => onChange({ ...prefs, quiet: e.target.checked ? { from, to } : null })} />
        No push between
      </label>
      <div className="settings-row">
        <input className="device-input" type="time" aria-label="Quiet from" value={from} onChange={(e) => setFrom(e.target.value)} onBlur={() => prefs.quiet && onChange({ ...prefs, quiet: { from, to } })} />
        <span>and</span>
        <input className="device-input" type="time" aria-label="Quiet until" value={to} onChange={(e) => setTo(e.target.value)} onBlur={() => prefs.quiet && onChange({ ...prefs, quiet: { from, to } })} />
      </div>
      <p className="pair-note">Nothing is pushed while Collie is open and visible on one of your devices, or was in the last 2 minutes.</p>
    </>
  );
}
