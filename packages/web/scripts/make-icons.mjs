#!/usr/bin/env node
// Draws the app icons (192 and 512 px PNG, plus the same design as SVG) with Node built-ins only:
// each pixel is coverage-sampled from a few shapes, and the PNG is written by hand with zlib.
// Run: node packages/web/scripts/make-icons.mjs  (writes packages/web/public/icons/)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');

// The design on a 512 grid: a full-bleed dark square (so the icon is also a valid maskable
// icon, its mark inside the 80 % safe zone), an open ring, and a "needs you" light in its gap.
const BG = [13, 17, 23];
const RING = [108, 182, 255];
const LIGHT = [255, 166, 87];
const CENTER = 256;
const RING_RADIUS = 132;
const RING_WIDTH = 44;
const GAP_HALF_ANGLE = (38 * Math.PI) / 180;
const LIGHT_AT = [CENTER + RING_RADIUS, CENTER];
const LIGHT_RADIUS = 34;

/** Coverage of the ring at a point of the 512 grid: an annulus missing a wedge on the right. */
function inRing(x, y) {
  const dx = x - CENTER;
  const dy = y - CENTER;
  const distance = Math.hypot(dx, dy);
  if (Math.abs(distance - RING_RADIUS) > RING_WIDTH / 2) return false;
  return Math.abs(Math.atan2(dy, dx)) > GAP_HALF_ANGLE;
}

function inLight(x, y) {
  return Math.hypot(x - LIGHT_AT[0], y - LIGHT_AT[1]) <= LIGHT_RADIUS;
}

/** The colour of one output pixel, averaged over a 4×4 grid of samples (anti-aliasing). */
function pixel(px, py, size) {
  const samples = 4;
  const sum = [0, 0, 0];
  for (let sy = 0; sy < samples; sy++) {
    for (let sx = 0; sx < samples; sx++) {
      const x = ((px + (sx + 0.5) / samples) / size) * 512;
      const y = ((py + (sy + 0.5) / samples) / size) * 512;
      const color = inLight(x, y) ? LIGHT : inRing(x, y) ? RING : BG;
      for (let c = 0; c < 3; c++) sum[c] += color[c];
    }
  }
  return sum.map((v) => Math.round(v / (samples * samples)));
}

function drawPng(size) {
  const raw = Buffer.alloc((size * 3 + 1) * size);
  let offset = 0;
  for (let y = 0; y < size; y++) {
    raw[offset++] = 0; // filter type 0 (None) for every scanline
    for (let x = 0; x < size; x++) {
      const [r, g, b] = pixel(x, y, size);
      raw[offset++] = r;
      raw[offset++] = g;
      raw[offset++] = b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour RGB
  header[10] = 0; // compression: deflate
  header[11] = 0; // filter method
  header[12] = 0; // no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG chunk: length, type, data, and the CRC-32 of type and data (PNG spec §5.3). */
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([length, body, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function svg() {
  const hex = (rgb) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  const start = [CENTER + RING_RADIUS * Math.cos(GAP_HALF_ANGLE), CENTER + RING_RADIUS * Math.sin(GAP_HALF_ANGLE)];
  const end = [start[0], CENTER - RING_RADIUS * Math.sin(GAP_HALF_ANGLE)];
  const f = (n) => n.toFixed(1);
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">',
    `<rect width="512" height="512" rx="96" fill="${hex(BG)}"/>`,
    `<path d="M ${f(start[0])} ${f(start[1])} A ${RING_RADIUS} ${RING_RADIUS} 0 1 1 ${f(end[0])} ${f(end[1])}"`,
    ` fill="none" stroke="${hex(RING)}" stroke-width="${RING_WIDTH}" stroke-linecap="butt"/>`,
    `<circle cx="${LIGHT_AT[0]}" cy="${LIGHT_AT[1]}" r="${LIGHT_RADIUS}" fill="${hex(LIGHT)}"/>`,
    '</svg>',
    '',
  ].join('');
}

mkdirSync(OUT, { recursive: true });
for (const size of [192, 512]) writeFileSync(join(OUT, `icon-${size}.png`), drawPng(size));
writeFileSync(join(OUT, 'icon.svg'), svg());
console.log(`icons written to ${OUT}`);
