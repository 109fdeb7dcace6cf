/** The bridge as a library: tests and the demo start it in-process. */
export { startBridge, type Bridge, type BridgeOptions } from './bridge';
export { EventHub } from './events/hub';
export { ReceiptStore } from './send/receipt-store';
export { boxForm } from './send/box-match';
