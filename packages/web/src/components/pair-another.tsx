import { useState } from 'react';
import type { PhonePairOffer } from '@collie/protocol';
import { useNow } from '../hooks/use-now';
import { offerPairing } from '../lib/devices-api';
import { CopyButton } from './copy-button';
import { QrCode } from './qr-code';

/**
 * "Pair another device", on the Devices page of a device that may send: the same one-time offer
 * as `collie pair` (a link and a code, once, for 10 minutes), shown as a QR code to scan and the
 * code to type. The phone keeps no copy once it is closed.
 */
export function PairAnother({ onError }: { readonly onError: (m: string) => void }) {
  const now = useNow();
  const [offer, setOffer] = useState<PhonePairOffer | null>(null);
  const [watchOnly, setWatchOnly] = useState(false);
  const [busy, setBusy] = useState(false);
  const make = () => {
    setBusy(true);
    void offerPairing(!watchOnly).then((r) => {
      setBusy(false);
      if (r.ok) setOffer(r.value);
      else onError(r.message);
    });
  };
  if (offer === null) {
    return (
      <div className="pair-another">
        <label className="pair-another-check">
          <input type="checkbox" checked={watchOnly} onChange={(e) => setWatchOnly(e.currentTarget.checked)} /> The new device may only watch
        </label>
        <button type="button" className="device-button pair-another-make" disabled={busy} onClick={make}>
          Pair another device
        </button>
      </div>
    );
  }
  const left = Math.max(0, Math.round((offer.expiresAt - now) / 60_000));
  const expired = offer.expiresAt <= now;
  return (
    <section className="pair-another pair-offer" aria-label="Pair another device">
      <h2 className="section-title">Pair another device</h2>
      <p className="pair-note">
        {expired ? 'This code expired. Make a new one.' : `Scan the QR code with the other device, or open Collie there and type the code. It works once, ${left < 1 ? 'for less than a minute' : `for ${left} min`} more.`}
        {offer.maySend ? '' : ' The device that pairs with it will be watch-only.'}
      </p>
      <QrCode rows={offer.qr} label="QR code of the pairing link" className="pair-qr" />
      <p className="pair-offer-code">
        Code <strong className="pair-offer-value">{offer.code}</strong>
      </p>
      <div className="device-actions">
        <CopyButton text={offer.link} label="Copy the pairing link" />
        <button type="button" className="device-button" onClick={() => setOffer(null)}>
          Done
        </button>
      </div>
    </section>
  );
}
