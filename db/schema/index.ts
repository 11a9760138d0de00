export * from './auth';
export * from './audit';
export * from './jobs';
