// The pure parts of the service: overrides over a profile, the skill folder variables, the
// write-then-run marker's time stamp.
import { describe, expect, it } from 'vitest';
import { PRESET_RULES } from '../profiles/presets';
import { policyOverridesSchema } from '../profiles/schema';
import { applyOverrides } from '../profiles/store';
import { skillEnv, skillEnvName } from './exec';
import { markerStamp } from './sessions';

describe('overrides', () => {
  it('replace the fields they name and merge deny groups per group', () => {
    const base = { ...PRESET_RULES.balanced, denyGroups: { network_recon: 'approval' as const } };
    const r = applyOverrides(base, { preChecks: false, denyGroups: { package_install: 'off' } });
    expect(r.preChecks).toBe(false);
    expect(r.denyGroups).toEqual({ network_recon: 'approval', package_install: 'off' });
    expect(r.blockHighRisk).toBe(true);
    expect(applyOverrides(base, null)).toBe(base);
  });

  it('keep absent fields absent and refuse unknown ones', () => {
    expect(policyOverridesSchema.parse({ workspaceOnly: true })).toEqual({ workspaceOnly: true });
    expect(policyOverridesSchema.safeParse({ sudo: true }).success).toBe(false);
    expect(policyOverridesSchema.safeParse({ denyGroups: { nope: 'off' } }).success).toBe(false);
  });
});

describe('skill folder variables', () => {
  it('name each skill upper-cased with other characters as _', () => {
    expect(skillEnvName('pdf-tools.v2')).toBe('SKILLDOCK_SKILL_DIR_PDF_TOOLS_V2');
    expect(skillEnv([{ name: 'web', dir: '/opt/skilldock/skills/web' }])).toEqual({
      SKILLDOCK_SKILLS_DIR: '/opt/skilldock/skills',
      SKILLDOCK_SKILL_DIR_WEB: '/opt/skilldock/skills/web',
    });
  });
});

describe('the write marker', () => {
  it('is one second before the exec, in UTC, as touch -t takes it', () => {
    expect(markerStamp(new Date('2026-01-01T00:00:00.500Z'))).toBe('202512312359.59');
    expect(markerStamp(new Date('2026-07-04T12:30:10Z'))).toBe('202607041230.09');
  });
});
