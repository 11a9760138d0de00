export * from './actor';
export * from './password';
export * from './permissions';
export * from './schemas';
export * from './throttle';
export * from './tokens';
export * from './users';
