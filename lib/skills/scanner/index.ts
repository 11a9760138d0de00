/** The skill security scanner. */
export { scanSkill, type DeclaredCapabilities, type ScanInputFile, type ScanOptions } from './scan';
export { toSarif } from './sarif';
export { SCAN_RULES, SCAN_RULE_IDS, SCANNER_VERSION, type ScanRule } from './catalog';
