import { useState } from 'react';
import { TopBar } from '../components/top-bar';
import { auth } from '../lib/auth-state';
import { dashboardHref } from '../lib/routes';

type Phase = { readonly kind: 'idle' } | { readonly kind: 'pairing' } | { readonly kind: 'failed'; readonly message: string; readonly locked: boolean };

/**
 * "Pair this device": what a browser without a device sees, whatever its link. It shows nothing
 * of the machine. A pairing link (`#/pair/<token>`) is spent at page load (`auth.start`), and
 * `reason` says why when it was refused.
 */
export function PairPage({ reason }: { readonly reason: string | null }) {
  const [code, setCode] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });

  const submit = () => {
    setPhase({ kind: 'pairing' });
    void auth.pair({ code }).then((out) => {
      if (out.ok) window.location.hash = dashboardHref();
      else setPhase({ kind: 'failed', message: out.message, locked: out.code === 'pairing_locked' });
    });
  };

  return (
    <>
      <TopBar connection="connecting">
        <span className="brand">Collie</span>
      </TopBar>
      <main className="page pair">
        <h1 className="pair-title">Pair this device</h1>
        {reason ? (
          <p className="pair-reason" role="alert">
            {reason}
          </p>
        ) : null}
        <p className="pair-help">
          On the computer that runs Collie, run <code>collie pair</code>. Open the link it prints on this device, or type its code here.
        </p>
        <form
          className="pair-form"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <label className="pair-label" htmlFor="pair-code">
            Pairing code
          </label>
          <input
            id="pair-code"
            className="pair-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            placeholder="XXXX-XXXX"
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={12}
            inputMode="text"
          />
          <button className="card-submit" type="submit" disabled={phase.kind === 'pairing' || code.replace(/[\s-]/g, '').length !== 8}>
            {phase.kind === 'pairing' ? 'Pairing…' : 'Pair'}
          </button>
        </form>
        {phase.kind === 'failed' ? (
          <p className={phase.locked ? 'pair-error pair-locked' : 'pair-error'} role="alert">
            {phase.message}
          </p>
        ) : null}
        <p className="pair-note">A code works once, for 10 minutes. After 5 wrong codes, pairing locks for 10 minutes.</p>
      </main>
    </>
  );
}
