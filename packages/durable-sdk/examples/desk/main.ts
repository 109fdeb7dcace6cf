/** `node desk.mjs <socket path | port>`: run desk until interrupted. */
import { startDesk } from './desk';

const where = process.argv[2] ?? `${process.env.XDG_RUNTIME_DIR ?? '/tmp'}/collie-desk.sock`;
const desk = await startDesk(/^\d+$/.test(where) ? { port: Number(where) } : { socket: where });
process.stdout.write(`desk listening on ${desk.listening.address}\n`);
const stop = () => void desk.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
