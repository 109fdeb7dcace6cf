import { useCallback, useEffect, useState } from 'react';
import type { CrewInviteAnswer, CrewMachineView, CrewView } from '@collie/protocol';
import { BackBar } from '../components/back-bar';
import { CopyButton } from '../components/copy-button';
import { Notice } from '../components/notice';
import { QrCode } from '../components/qr-code';
import { MessageAll } from '../components/walky/message-all';
import { useClientState } from '../hooks/use-client';
import { useNow } from '../hooks/use-now';
import { fetchCrew, postInvite, postRemove } from '../lib/crew-api';
import { seenAgo } from '../lib/pane-words';

/** How often the page reads the crew again while it is open (who is reachable changes). */
const REFRESH_MS = 3000;

/** `#/crew`: the machines of this crew, their state, an invite with its QR code, removing a member, Message all agents. */
export function CrewPage() {
  const { connection } = useClientState();
  const [view, setView] = useState<CrewView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    void fetchCrew().then((r) => (r.ok ? (setView(r.value), setError(null)) : setError(r.message)));
  }, []);
  useEffect(() => {
    load();
    const timer = window.setInterval(load, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [load]);
  return (
    <>
      <BackBar connection={connection} />
      <main className="page crew-page">
        <h1 className="section-title">Crew</h1>
        {error ? (
          <p className="pair-error" role="alert">
            {error}
          </p>
        ) : null}
        {view === null ? (
          <Notice title="Loading the crew…" />
        ) : view.crew === null ? (
          <Notice title="This machine is in no crew.">
            To lead one, run <code>collie crew create --listen &lt;host:port&gt;</code> here, then invite each machine from this page.
          </Notice>
        ) : (
          <Crew view={view} onChanged={load} onError={setError} />
        )}
      </main>
    </>
  );
}

function Crew({ view, onChanged, onError }: { readonly view: Extract<CrewView, { role: string }>; readonly onChanged: () => void; readonly onError: (m: string) => void }) {
  const { maySend } = useClientState();
  const lead = view.role === 'lead';
  // A watch-only device reads the crew; inviting and removing machines change it.
  const manage = lead && maySend;
  const reachable = view.machines.filter((m) => m.reachable).length;
  return (
    <>
      <p className="crew-summary">
        {view.crew} · {lead ? 'this machine leads' : 'this machine is a member'} · {reachable} of {view.machines.length} machines reachable
      </p>
      <ul className="crew-machines">
        {view.machines.map((m) => (
          <MachineRow key={m.name} machine={m} canRemove={manage && m.role === 'member'} onChanged={onChanged} onError={onError} />
        ))}
      </ul>
      {manage ? (
        <InviteBlock onError={onError} />
      ) : lead ? null : (
        <p className="crew-note">Invite and remove machines on the lead, {view.machines.find((m) => m.role === 'lead')?.name ?? 'the lead'}.</p>
      )}
      <MessageAll />
    </>
  );
}

function MachineRow({ machine, canRemove, onChanged, onError }: { readonly machine: CrewMachineView; readonly canRemove: boolean; readonly onChanged: () => void; readonly onError: (m: string) => void }) {
  const now = useNow();
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const state = machine.reachable ? 'Reachable' : machine.lastSeen === null ? 'Unreachable, never connected yet' : `Unreachable, last seen ${seenAgo(machine.lastSeen, now)}`;
  const remove = () => {
    setBusy(true);
    void postRemove(machine.name).then((r) => {
      setBusy(false);
      setConfirm(false);
      if (!r.ok) onError(r.message);
      onChanged();
    });
  };
  return (
    <li className={`crew-machine${machine.reachable ? '' : ' crew-away'}`} data-machine={machine.name}>
      <div className="crew-head">
        <span className="crew-name">{machine.name}</span>
        <span className="crew-role">{machine.role === 'lead' ? 'Lead' : 'Member'}</span>
        {machine.you ? <span className="device-this">This machine</span> : null}
      </div>
      <p className="crew-state">{state}</p>
      <p className="crew-meta">
        Collie {machine.version} · {machine.listen}
      </p>
      {!canRemove ? null : confirm ? (
        <div className="crew-actions">
          <span className="crew-ask">Remove {machine.name} from the crew? Its key is refused from now on; it can join again only with a new invite.</span>
          <button className="crew-button crew-danger" type="button" disabled={busy} onClick={remove}>
            Remove
          </button>
          <button className="crew-button" type="button" disabled={busy} onClick={() => setConfirm(false)}>
            Keep
          </button>
        </div>
      ) : (
        <div className="crew-actions">
          <button className="crew-button crew-danger" type="button" onClick={() => setConfirm(true)}>
            Remove
          </button>
        </div>
      )}
    </li>
  );
}

/** A single-use invite: shown once, here, until "Done"; the phone keeps no copy. */
function InviteBlock({ onError }: { readonly onError: (m: string) => void }) {
  const now = useNow();
  const [invite, setInvite] = useState<CrewInviteAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const make = () => {
    setBusy(true);
    void postInvite().then((r) => {
      setBusy(false);
      if (r.ok) setInvite(r.value);
      else onError(r.message);
    });
  };
  if (invite === null) {
    return (
      <button type="button" className="crew-button crew-invite" disabled={busy} onClick={make}>
        Invite a machine
      </button>
    );
  }
  const left = Math.max(0, Math.round((invite.expires - now) / 60_000));
  return (
    <section className="crew-invite-box" aria-label="Invite">
      <h2 className="crew-sub">Invite for one machine</h2>
      <p className="crew-note">
        {invite.expires <= now ? 'This invite expired. Make a new one.' : `Valid ${left < 1 ? 'less than a minute' : `${left} min`} more, once. It is shown only now.`}
      </p>
      <QrCode rows={invite.qr} label="QR code of the invite" className="crew-qr" />
      <p className="crew-note">On the new machine run:</p>
      <code className="crew-token">collie crew join {invite.token} --listen &lt;its address:port&gt;</code>
      <div className="crew-actions">
        <CopyButton text={invite.token} label="Copy the invite" />
        <button type="button" className="crew-button" onClick={() => setInvite(null)}>
          Done
        </button>
      </div>
    </section>
  );
}
