export * from './search';
export type { Highlight } from './highlight';
