/** Devices: pairing, device tokens and their store, the devices socket, the phone's address. */
export { DeviceStore, devicesFile, toDevice, type TokenCheck } from './store';
export { runDevicesCommand, type DeviceOps } from './commands';
export { serveDevicesSocket, askBridge, devicesSocketPath } from './devices-socket';
export { publicUrlFor, publicUrlHint, pairingLink, tailscaleUrlFromStatus, type PublicUrl } from './public-url';
export { formatCode } from './secrets';
export { nameFromUserAgent, OFFER_MS } from './core';
export { LOCK_MS, MAX_WRONG_CODES } from './lockout';
