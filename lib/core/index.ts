export * from './errors';
export * from './config';
export * from './ids';
export * from './logger';
export * from './process';
