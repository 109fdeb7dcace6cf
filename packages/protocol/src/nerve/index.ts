export * from './roster';
export * from './api';
