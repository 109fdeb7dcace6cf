/** The bridge-side commands the `collie` CLI dispatches to (bundled as dist/commands.mjs). */
export { serve } from './serve';
export { screen } from './screen';
export { start, stop, status } from './daemon';
export { bridgeEnv } from './bridge-env';
export { doctor, formatChecks } from './doctor';
export { pair, token, devicesList, devicesRevoke, devicesSet, formatDevices, pairingLines, devicesCommand, rightWords } from './devices';
export { qrCode } from './qr';
export { skill, update } from './skill';
export { durableAdd, durableList, durableRemove } from './durable';
export { durableRegistry, type DurableRegistry } from './durable-registry';
export { pushKeys } from './push';
export { crew } from './crew';
