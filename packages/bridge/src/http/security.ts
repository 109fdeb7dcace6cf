/**
 * The guards every request passes: a Host allow-list against DNS rebinding, a same-origin
 * gate for the API, and the headers that lock the page down.
 */

/** Strict CSP: nothing inline, nothing from elsewhere. React sets styles through the DOM. */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

// The Host and origin gates live in the protocol package so Nerve's API passes the very same ones.
export { allowedHosts, hostAllowed, originAllowed } from '@collie/protocol';
