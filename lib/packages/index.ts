export * from './context';
export * from './operations';
export * from './schemas';
