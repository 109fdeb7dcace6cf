export * from './roster';
export * from './api';
export * from './phone';
