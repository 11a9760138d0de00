export * from './backend';
export * from './connection';
export * from './create-spec';
export { sandboxPath } from './files';
export * from './sweep';
export type { TtyOptions, TtySession } from './tty';
