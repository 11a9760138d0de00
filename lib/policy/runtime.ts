// The process's one policy engine (the grammar's wasm is loaded once) and the built-in presets and
// deny-group descriptors as the API serves them.

import type { PolicyEngineLike } from './decide';
import { createPolicyEngine } from './engine/engine';
import { PRESET_RULES } from './profiles/presets';
import type { PresetDef } from './profiles/store';
import { DENY_GROUP_DESCRIPTORS } from './rules/deny-groups';
import type { PresetName } from './types';
import { PRESETS } from './types';

// process-wide: the policy engine: the grammar and constant rule tables, judging whatever rules a caller passes
let engine: Promise<PolicyEngineLike> | null = null;

export function policyEngine(): Promise<PolicyEngineLike> {
  if (engine) return engine;
  const started: Promise<PolicyEngineLike> = createPolicyEngine().catch((e: unknown) => {
    engine = null;
    throw e;
  });
  engine = started;
  return started;
}

const PRESET_DESCRIPTIONS: Record<PresetName, string> = {
  locked_down: 'A strict allowlist of read-mostly commands, paths confined to the workspace, medium-risk verbs asked for.',
  balanced: 'Any command; high-risk ones blocked, every deny group at its default, pre-checks on. The default.',
  yolo: 'Every optional check off: only the always-on rules still refuse.',
};

// process-wide: the built-in presets, a constant table built once
let presets: Record<PresetName, PresetDef> | null = null;

export function presetDefs(): Readonly<Record<PresetName, PresetDef>> {
  presets ??= Object.fromEntries(PRESETS.map((p) => [p, { description: PRESET_DESCRIPTIONS[p], rules: PRESET_RULES[p] }])) as Record<PresetName, PresetDef>;
  return presets;
}

export function denyGroupList() {
  return DENY_GROUP_DESCRIPTORS.map((d) => ({
    name: d.name,
    description: d.description,
    default: d.default,
    patterns: d.patterns.map((p) => ({ id: p.id, pattern: p.pattern })),
  }));
}
