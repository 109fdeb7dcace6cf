/// <reference path="../types/qrcode-terminal.d.ts" />
import { createRequire } from 'node:module';
import qrcode from 'qrcode-terminal';

/** A QR code of `text` drawn with block characters, for a terminal. */
export function qrCode(text: string): Promise<string> {
  return new Promise((resolve) => qrcode.generate(text, { small: true }, (code: string) => resolve(code)));
}

interface QRCodeModel {
  addData(text: string): void;
  make(): void;
  getModuleCount(): number;
  modules: boolean[][];
}

/**
 * The same QR code as `qrCode` draws (the same encoder, error correction L), as rows of
 * `1` (dark) and `0` (light): the phone draws it as SVG.
 */
export function qrModules(text: string): string[] {
  // qrcode-terminal's own encoder, as its `generate` uses it.
  const QRCode = createRequire(import.meta.url)('qrcode-terminal/vendor/QRCode') as new (type: number, level: number) => QRCodeModel;
  const qr = new QRCode(-1, qrcode.error);
  qr.addData(text);
  qr.make();
  return qr.modules.map((row) => row.map((dark) => (dark ? '1' : '0')).join(''));
}
