/** The skill security scanner (spec/skills.md §11, SK-D01–SK-D04). */
export { scanSkill, type DeclaredCapabilities, type ScanInputFile, type ScanOptions } from './scan';
export { toSarif } from './sarif';
export { SCAN_RULES, SCAN_RULE_IDS, SCANNER_VERSION, type ScanRule } from './catalog';
