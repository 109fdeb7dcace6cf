import type { CrewView, WalkyBroadcastAnswer } from '@collie/protocol';
import { useEffect, useState } from 'react';
import { fetchCrew } from '../../lib/crew-api';
import { useClientState } from '../../hooks/use-client';
import { postBroadcast } from '../../lib/walky/api';
import { broadcastChoice, confirmWords, refusalLines } from '../../lib/walky/broadcast';
import { recipientLine } from '../../lib/walky/messages';
import { rememberSent, useWalky } from '../../lib/walky/store';
import { MayNotSend } from '../may-not-send';
import './walky.css';

type Step = { name: 'write' } | { name: 'confirm' } | { name: 'sending' } | { name: 'done'; answer: WalkyBroadcastAnswer } | { name: 'failed'; message: string };

/**
 * "Message all agents", for the operator: write, pick "Send to", confirm with the count and the
 * recipients' labels, then one receipt per target by label ("Agents reached"), the shells
 * skipped, and the refusals.
 */
export function MessageAll() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="wk-all-open" onClick={() => setOpen(true)}>
        Message all agents
      </button>
      {open ? <MessageAllSheet onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function MessageAllSheet({ onClose }: { readonly onClose: () => void }) {
  const { model, maySend } = useClientState();
  const walky = useWalky();
  const [text, setText] = useState('');
  const [member, setMember] = useState('all');
  const [step, setStep] = useState<Step>({ name: 'write' });
  const [crew, setCrew] = useState<CrewView>({ crew: null });
  // "Send to" lists the crew's machines (read once as the sheet opens); with no crew, this one.
  useEffect(() => void fetchCrew().then((r) => r.ok && setCrew(r.value)), []);
  const machine = model?.machine ?? 'this machine';
  // A member sees only its own panes: it offers this machine, or all, where the lead counts and reaches the others.
  const onMember = crew.crew !== null && crew.role === 'member';
  const leadName = crew.crew !== null ? (crew.machines.find((m) => m.role === 'lead')?.name ?? 'the lead') : '';
  const choices =
    crew.crew === null
      ? [{ value: 'local', label: machine, reachable: true }]
      : onMember
        ? [{ value: 'local', label: `This machine (${crew.machines.find((m) => m.you)?.name ?? machine})`, reachable: true }]
        : crew.machines.map((m) => ({ value: m.you ? 'local' : m.name, label: m.name, reachable: m.reachable }));
  const { agents, shells, machines } = broadcastChoice(model?.panes.values() ?? [], member);
  const byLead = onMember && member === 'all';
  const send = async () => {
    setStep({ name: 'sending' });
    const got = await postBroadcast(text, member);
    if (!got.ok) return setStep({ name: 'failed', message: got.message });
    for (const m of got.value.messages) rememberSent(m);
    setStep({ name: 'done', answer: got.value });
  };
  // Each receipt follows its message to the final word.
  const live = (id: string) => (walky.phase === 'ready' ? walky.messages.find((m) => m.id === id) : undefined);
  return (
    <div className="wk-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <section className="wk-sheet" role="dialog" aria-modal="true" aria-labelledby="wk-all-title">
        <header className="wk-sheet-head">
          <h2 id="wk-all-title">Message all agents</h2>
          <button type="button" className="wk-close" onClick={onClose}>
            Close
          </button>
        </header>
        <div className="wk-sheet-list">
          {step.name === 'write' || step.name === 'failed' ? (
            <>
              <textarea className="wk-text" rows={4} value={text} aria-label="Message to every agent" onChange={(e) => setText(e.currentTarget.value)} />
              <label className="wk-field">
                Send to
                <select value={member} onChange={(e) => setMember(e.currentTarget.value)}>
                  <option value="all">All machines</option>
                  {choices.map((c) => (
                    <option key={c.value} value={c.value} disabled={!c.reachable}>
                      {c.reachable ? c.label : `${c.label} (unreachable)`}
                    </option>
                  ))}
                </select>
              </label>
              <button type="button" className="wk-primary" disabled={text.trim() === '' || !maySend} onClick={() => setStep({ name: 'confirm' })}>
                Send message
              </button>
              {maySend ? null : <MayNotSend />}
              {step.name === 'failed' ? <p className="wk-bad">Not sent: {step.message}</p> : null}
            </>
          ) : null}
          {step.name === 'confirm' || step.name === 'sending' ? (
            <>
              <p className="wk-confirm">{byLead ? `Message ${agents.length === 1 ? '1 agent' : `${agents.length} agents`} on this machine, and every agent on the other machines?` : confirmWords(agents.length, machines)}</p>
              {byLead ? <p className="wk-note">The lead, {leadName}, counts the other machines' agents and passes the message on; each gets its own receipt.</p> : null}
              {/* Who it reaches, by the labels the dashboard shows, before anything is sent. */}
              {agents.length > 0 ? (
                <ul className="wk-receipts wk-recipients" aria-label="Recipients">
                  {agents.map((p) => (
                    <li key={p.id}>{p.member ? `${p.label} on ${p.member.name}` : p.label}</li>
                  ))}
                </ul>
              ) : null}
              <div className="wk-buttons">
                <button type="button" className="wk-primary" disabled={step.name === 'sending' || (agents.length === 0 && !byLead)} onClick={() => void send()}>
                  Send
                </button>
                <button type="button" className="wk-close" disabled={step.name === 'sending'} onClick={() => setStep({ name: 'write' })}>
                  Back
                </button>
              </div>
            </>
          ) : null}
          {step.name === 'done' ? (
            <>
              <h3 className="wk-sub">Agents reached</h3>
              <ul className="wk-receipts">
                {step.answer.messages.map((m) => (
                  <li key={m.id}>{recipientLine(live(m.id) ?? m)}</li>
                ))}
                <li className="wk-every">every machine: {step.answer.messages.length === 1 ? '1 message' : `${step.answer.messages.length} messages`}</li>
              </ul>
              {refusalLines(step.answer.refusals).length > 0 ? (
                <>
                  <h3 className="wk-sub">Not sent on this machine</h3>
                  <ul className="wk-receipts">
                    {refusalLines(step.answer.refusals).map((l) => (
                      <li key={l}>{l}</li>
                    ))}
                  </ul>
                </>
              ) : null}
            </>
          ) : null}
          {shells.length > 0 && step.name !== 'done' ? <Skipped labels={shells.map((p) => p.label)} /> : null}
          {step.name === 'done' && step.answer.skipped.length > 0 ? <Skipped labels={step.answer.skipped.map((p) => p.label)} /> : null}
        </div>
      </section>
    </div>
  );
}

function Skipped({ labels }: { readonly labels: readonly string[] }) {
  return (
    <>
      <h3 className="wk-sub">Shell panes skipped</h3>
      <ul className="wk-receipts wk-muted">
        {labels.map((l, i) => (
          <li key={i}>{l}</li>
        ))}
      </ul>
    </>
  );
}
