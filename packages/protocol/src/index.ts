export * from './pane';
export * from './events';
export * from './errors';
export * from './send';
export * from './devices';
