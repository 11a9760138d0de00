// The shape of a corpus case and the helpers the corpus files write their cases with.
import type { Decision, PresetName, ProfileRules } from '../types';

export interface CorpusCase {
  command: string;
  decision: Decision;
  rule: string;
  /** When set, the deciding rule's id must equal it. */
  ruleId?: string;
}

export interface SpotCase extends CorpusCase {
  preset: PresetName;
  cwd?: string;
  home?: string;
  writtenFiles?: string[];
  scannedClean?: string[];
  /** Overrides the preset's inlineCode setting. */
  inlineCode?: ProfileRules['inlineCode'];
  /** The exec sends a non-empty stdin. */
  stdin?: boolean;
}

export const allow = (command: string): CorpusCase => ({ command, decision: 'allow', rule: 'allowed' });
export const deny = (command: string, rule: string, ruleId?: string): CorpusCase => ({ command, decision: 'deny', rule, ...(ruleId ? { ruleId } : {}) });
export const ask = (command: string, rule: string, ruleId?: string): CorpusCase => ({ command, decision: 'approval', rule, ...(ruleId ? { ruleId } : {}) });
export const group = (g: string) => `deny_group:${g}`;

/** One spelling of an attack class; `stdin` marks an exec that sends stdin. */
export interface AttackCase {
  cls: string;
  command: string;
  stdin?: boolean;
}
