/** The skill security scanner. */

export { SCAN_RULE_IDS, SCAN_RULES, SCANNER_VERSION, type ScanRule } from './catalog';
export { toSarif } from './sarif';
export { type DeclaredCapabilities, type ScanInputFile, type ScanOptions, scanSkill } from './scan';
