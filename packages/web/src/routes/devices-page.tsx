import { useCallback, useEffect, useState } from 'react';
import type { Device, DevicesList } from '@collie/protocol';
import { BackBar } from '../components/back-bar';
import { Notice } from '../components/notice';
import { useClientState } from '../hooks/use-client';
import { fetchDevices, renameDevice, revokeDevice, setDeviceRight } from '../lib/devices-api';
import { MayNotSend } from '../components/may-not-send';
import { PairAnother } from '../components/pair-another';

/**
 * `#/devices`: every paired device (this one marked), to rename or remove, and its right: may
 * send, or watch only. A device that may send changes the others' rights; a watch-only device
 * can only remove itself.
 */
export function DevicesPage() {
  const { connection, maySend } = useClientState();
  const [list, setList] = useState<DevicesList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    void fetchDevices().then((r) => (r.ok ? (setList(r.value), setError(null)) : setError(r.message)));
  }, []);
  useEffect(load, [load]);
  return (
    <>
      <BackBar connection={connection} />
      <main className="page">
        <h1 className="section-title">Devices</h1>
        {error ? (
          <p className="pair-error" role="alert">
            {error}
          </p>
        ) : null}
        {list === null ? (
          <Notice title="Loading devices…" />
        ) : (
          <>
            {list.via.kind === 'proxy' ? <p className="device-via">You came in as {list.via.login}, through the proxy.</p> : null}
            {maySend ? null : <MayNotSend />}
            <ul className="devices">
              {list.devices.map((d) => (
                <DeviceRow key={d.id} device={d} manage={maySend} onChanged={load} onError={setError} />
              ))}
            </ul>
            {maySend ? <PairAnother onError={setError} /> : null}
            <p className="pair-note">
              {maySend ? 'Or run' : 'To add a device, run'} <code>collie pair</code> on the computer that runs Collie.
            </p>
          </>
        )}
      </main>
    </>
  );
}

function when(t: number | null): string {
  return t === null ? 'never' : new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function DeviceRow({ device, manage, onChanged, onError }: { readonly device: Device; readonly manage: boolean; readonly onChanged: () => void; readonly onError: (m: string) => void }) {
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm'>('view');
  const [name, setName] = useState(device.name);
  const act = (run: Promise<{ ok: boolean; message?: string }>) =>
    void run.then((r) => {
      if (!r.ok) onError(r.message ?? 'That did not work.');
      setMode('view');
      onChanged();
    });
  return (
    <li className="device" data-device={device.name}>
      <div className="device-head">
        <span className="device-name">{device.name}</span>
        {device.current ? <span className="device-this">This device</span> : null}
      </div>
      <p className="device-meta">
        {device.kind === 'browser' ? 'Browser' : 'Token'} · {device.maySend ? 'May send' : 'Watch only'} · paired {when(device.pairedAt)} · last seen {when(device.lastSeen)}
      </p>
      {mode === 'rename' ? (
        <form
          className="device-actions"
          onSubmit={(e) => {
            e.preventDefault();
            act(renameDevice(device.id, name));
          }}
        >
          <input className="device-input" value={name} onChange={(e) => setName(e.target.value)} maxLength={40} aria-label="Device name" />
          <button className="device-button" type="submit">
            Save
          </button>
          <button className="device-button" type="button" onClick={() => setMode('view')}>
            Cancel
          </button>
        </form>
      ) : mode === 'confirm' ? (
        <div className="device-actions">
          <span className="device-ask">Remove {device.name}?</span>
          <button className="device-button device-danger" type="button" onClick={() => act(revokeDevice(device.id))}>
            Remove
          </button>
          <button className="device-button" type="button" onClick={() => setMode('view')}>
            Keep
          </button>
        </div>
      ) : manage ? (
        <div className="device-actions">
          <button className="device-button" type="button" onClick={() => setMode('rename')}>
            Rename
          </button>
          {/* This device keeps its own right: taking it away here could not be undone from here. */}
          {device.current ? null : (
            <button className="device-button" type="button" onClick={() => act(setDeviceRight(device.id, !device.maySend))}>
              {device.maySend ? 'Make watch-only' : 'Allow sending'}
            </button>
          )}
          <button className="device-button device-danger" type="button" onClick={() => setMode('confirm')}>
            Remove
          </button>
        </div>
      ) : device.current ? (
        <div className="device-actions">
          <button className="device-button device-danger" type="button" onClick={() => setMode('confirm')}>
            Remove
          </button>
        </div>
      ) : null}
    </li>
  );
}
