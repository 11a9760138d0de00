export * from './audit';
export * from './auth';
export * from './github';
export * from './installs';
export * from './jobs';
export * from './packages';
export * from './sandboxes';
export * from './skills';
