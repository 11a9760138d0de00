export type { Highlight } from './highlight';
export * from './search';
