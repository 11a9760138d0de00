export { isSkippedDirName, SKILL_FILE } from './candidates';
export { isInside } from './containment';
export * from './discover';
export * from './inventory';
export { copyId, readSkillMd } from './load-copy';
export * from './watch';
