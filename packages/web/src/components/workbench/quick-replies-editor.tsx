import { useEffect, useState } from 'react';
import { QuickReplies, QuickReply } from '@collie/protocol';
import { bridgeJson } from '../../lib/workbench/bridge-json';

/**
 * The Settings page's quick replies: the saved one-tap texts of `quick-replies.json`, each with
 * Remove, and a form that adds one. Every change saves the whole list (`POST /api/quick-replies`);
 * the bridge's answer is what the page shows, and its refusal is said.
 */
export function QuickRepliesEditor() {
  const [replies, setReplies] = useState<readonly QuickReply[] | null>(null);
  const [label, setLabel] = useState('');
  const [text, setText] = useState('');
  const [message, setMessage] = useState<{ text: string; bad: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void bridgeJson('/api/quick-replies', QuickReplies).then((r) => (r.ok ? setReplies(r.value.replies) : setMessage({ text: r.message, bad: true })));
  }, []);

  const save = async (next: readonly QuickReply[], said: string): Promise<boolean> => {
    setBusy(true);
    const r = await bridgeJson('/api/quick-replies', QuickReplies, { replies: next });
    setBusy(false);
    if (!r.ok) {
      setMessage({ text: r.message, bad: true });
      return false;
    }
    setReplies(r.value.replies);
    setMessage({ text: said, bad: false });
    return true;
  };
  const add = async () => {
    const reply = QuickReply.safeParse({ label: label.trim(), text: text.trim() });
    if (!reply.success) return setMessage({ text: 'A quick reply needs a label (1 to 24 characters) and a text (up to 2,000).', bad: true });
    if (replies?.some((r) => r.label === reply.data.label)) return setMessage({ text: `There is a quick reply labelled “${reply.data.label}” already.`, bad: true });
    if (await save([...(replies ?? []), reply.data], `Saved “${reply.data.label}”.`)) {
      setLabel('');
      setText('');
    }
  };

  return (
    <section className="quick-edit" aria-labelledby="quick-edit-head">
      <h2 className="settings-head" id="quick-edit-head">
        Quick replies
      </h2>
      <p className="new-note">One tap above a pane’s composer sends the text, as if typed.</p>
      {message ? (
        <p className={message.bad ? 'workbench-error' : 'settings-ok'} role={message.bad ? 'alert' : 'status'}>
          {message.text}
        </p>
      ) : null}
      {replies === null ? null : (
        <ul className="rows quick-edit-list">
          {replies.map((r) => (
            <li key={r.label} className="quick-edit-row">
              <span className="new-choice-main">
                <span className="new-choice-name">{r.label}</span>
                <span className="new-choice-meta">{r.text}</span>
              </span>
              <button
                type="button"
                className="composer-keys"
                aria-label={`Remove ${r.label}`}
                disabled={busy}
                onClick={() =>
                  void save(
                    replies.filter((x) => x.label !== r.label),
                    `Removed “${r.label}”.`,
                  )
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="new-set quick-edit-form"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <label className="workbench-label" htmlFor="quick-label">
          Label
        </label>
        <input id="quick-label" className="composer-box" value={label} maxLength={24} placeholder="Ship it" onChange={(e) => setLabel(e.currentTarget.value)} />
        <label className="workbench-label" htmlFor="quick-text">
          Text it sends
        </label>
        <textarea id="quick-text" className="composer-box" rows={2} value={text} maxLength={2000} placeholder="Looks good: commit and push." onChange={(e) => setText(e.currentTarget.value)} />
        <div className="diff-comment-actions">
          <button type="submit" className="composer-send" disabled={busy || replies === null || replies.length >= 20}>
            Add
          </button>
        </div>
      </form>
    </section>
  );
}
