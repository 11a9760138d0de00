export * from './types';
export * from './registry';
export * from './queue';
export * from './hub';
export * from './worker';
export * from './log-writer';
export { registerBuiltinJobKinds } from './kinds';
export * from './sse';
export * from './socket';
