export * from './pane';
export * from './events';
export * from './errors';
export * from './send';
export * from './durable';
export * from './walky';
export * from './devices';
export * from './walky-phone';
