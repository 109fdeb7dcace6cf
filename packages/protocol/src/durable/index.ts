/** Durable agents: wire v1 (agent ↔ bridge) and what the phone is served of it. */
export * from './limits';
export * from './clean';
export * from './items';
export * from './questions';
export * from './wire';
export * from './model';
export * from './push';
export * from './fit';
export * from './fold';
export * from './sources';
