export { isSkippedDirName, SKILL_FILE } from './candidates';
export { isInside } from './containment';
export { CopyCache } from './copy-cache';
export * from './discover';
export * from './inventory';
export { copyId } from './load-copy';
export * from './watch';
