/** The skill version store: safe archive extraction, immutable versions, atomic activation. */
export { extractSkillArchive, stageSkillFile, MAX_SINGLE_SKILL_MD_BYTES, type ExtractedSkill, type SkillArchiveFormat } from './extract';
export { DEFAULT_SKILL_ARCHIVE_LIMITS, type SkillArchiveLimits } from './archive-policy';
export { SKILL_MD_NAMES } from './skill-root';
export { installVersion, activateVersion, createStagingDir, type InstallVersionInput, type InstalledVersion } from './versions';
export { activeVersion, listVersions, removeSkill, setPinned, type SkillStore, type VersionInfo } from './store-state';
export { readVersionFile, diffVersions, detectDrift, MAX_READ_BYTES, MAX_PATCH_BYTES, type VersionDiff, type FileDiff, type TextDiff, type DriftReport } from './version-files';
export { recoverStore, type RecoveryReport } from './recover';
export { readLock, lockFilePath, originFilePath, type ClawhubLock, type ClawhubLockEntry, type ClawhubOrigin } from './clawhub-files';
export { validateSlug, type VersionRecord, type VersionsManifest } from './manifest';
