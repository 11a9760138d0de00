export * from './config';
export * from './errors';
export * from './ids';
export * from './logger';
export * from './process';
