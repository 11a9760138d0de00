export * from './runtime-settings';
export * from './store';
