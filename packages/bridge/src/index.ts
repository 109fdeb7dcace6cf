/** The bridge as a library: tests and the demo start it in-process. */
export { startBridge, type Bridge, type BridgeOptions } from './bridge';
export { EventHub } from './events/hub';
