/** The skill security scanner. */

export { SCAN_RULE_IDS, SCAN_RULES, SCANNER_VERSION, type ScanRule } from './catalog';
export {
  closeScanPool,
  configureScanPool,
  DEFAULT_SCAN_BUDGET_MS,
  forgetFileScans,
  knowScans,
  loadSkillFolderInPool,
  ScanPool,
  type ScanPoolOptions,
  scanSkillFiles,
} from './pool';
export { toSarif } from './sarif';
export { type DeclaredCapabilities, declaredOf, type ScanInputFile, type ScanOptions, scanSkill } from './scan';
