export * from './auth';
export * from './audit';
export * from './jobs';
export * from './packages';
export * from './github';
export * from './skills';
