/// <reference path="../types/qrcode-terminal.d.ts" />
import qrcode from 'qrcode-terminal';

/** A QR code of `text` drawn with block characters, for a terminal. */
export function qrCode(text: string): Promise<string> {
  return new Promise((resolve) => qrcode.generate(text, { small: true }, (code: string) => resolve(code)));
}
