export * from './discover';
export * from './inventory';
export * from './watch';
export { copyId, readSkillMd } from './load-copy';
export { isInside } from './containment';
export { SKILL_FILE, isSkippedDirName } from './candidates';
