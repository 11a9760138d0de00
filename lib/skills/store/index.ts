/** The skill version store: safe archive extraction, immutable versions, atomic activation. */

export { DEFAULT_SKILL_ARCHIVE_LIMITS, type SkillArchiveLimits } from './archive-policy';
export { type ClawhubLock, type ClawhubLockEntry, type ClawhubOrigin, lockFilePath, originFilePath, readLock } from './clawhub-files';
export { type ExtractedSkill, extractSkillArchive, MAX_SINGLE_SKILL_MD_BYTES, type SkillArchiveFormat, stageSkillFile } from './extract';
export { type VersionRecord, type VersionsManifest, validateSlug } from './manifest';
export { type RecoveryReport, recoverStore, sweepStaging } from './recover';
export { SKILL_MD_NAMES } from './skill-root';
export { activeVersion, listVersions, removeSkill, type SkillStore, setPinned, type VersionInfo } from './store-state';
export {
  type DriftReport,
  detectDrift,
  diffDirs,
  diffVersions,
  type FileDiff,
  MAX_PATCH_BYTES,
  MAX_READ_BYTES,
  readVersionFile,
  type TextDiff,
  type VersionDiff,
} from './version-files';
export { activateVersion, createStagingDir, type InstalledVersion, type InstallVersionInput, installVersion } from './versions';
