/**
 * Why a durable agent cannot be reached, in words for the phone and `collie durable list`
 * (never the raw `connect ENOENT /…/desk.sock`). Pure: the error's message is all it reads.
 */
export function unreachableWords(message: string, socket: boolean): string {
  const where = socket ? 'its socket' : 'its address';
  if (/\b(ENOENT|ECONNREFUSED)\b/.test(message)) return `Nothing answers at ${where}: the durable agent is not running, or listens elsewhere.`;
  if (/\b(EACCES|EPERM)\b/.test(message)) return `Collie may not open ${where}: check its permissions.`;
  if (/\b(ENOTFOUND|EAI_AGAIN)\b/.test(message)) return 'Its host name does not resolve.';
  if (/\b(ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)\b|no answer in \d+ ms/.test(message)) return 'It did not answer in time.';
  if (/\b(ECONNRESET|EPIPE)\b|socket hang up/.test(message)) return 'The connection dropped on the way.';
  if (/certificate|CERT_|self[- ]signed/i.test(message)) return 'Its certificate is not trusted.';
  if (/answered \d{3}$/.test(message)) return `It answered with an error (${message.slice(-3)}).`;
  if (/^its hello /.test(message)) return `It answered, but ${message}.`;
  return 'It cannot be reached right now.';
}
