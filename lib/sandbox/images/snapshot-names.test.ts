import { describe, expect, it } from 'vitest';
import { checkImage } from '@/lib/sandbox/docker/backend';
import { isMaintenanceLabels, isSkillDirName, MAINTENANCE_LABEL, snapshotRef } from './snapshot-names';

describe('snapshot names', () => {
  it('names a config snapshot by id and generation, a valid image reference', () => {
    const id = '0b9f6d1e-6f0a-4e43-9f7c-2f1f3a0d9c11';
    expect(snapshotRef(id, 3)).toBe(`skilldock-snapshot/${id}:g3`);
    expect(checkImage(snapshotRef(id, 3))).toBeTruthy();
  });

  it('hashes an id an image repository cannot hold, keeping ids apart', () => {
    const a = snapshotRef('Config_A', 1);
    expect(a).toMatch(/^skilldock-snapshot\/h[0-9a-f]{24}:g1$/);
    expect(a).not.toBe(snapshotRef('config_a', 1));
    expect(() => snapshotRef('x', 0)).toThrow(/positive integer/);
  });

  it('tells a live maintenance container from a snapshot sandbox with the blanked label', () => {
    expect(isMaintenanceLabels({ [MAINTENANCE_LABEL]: 'run-1' })).toBe(true);
    expect(isMaintenanceLabels({ [MAINTENANCE_LABEL]: '' })).toBe(false);
    expect(isMaintenanceLabels({})).toBe(false);
  });

  it('accepts plain skill folder names only', () => {
    expect(isSkillDirName('pdf-tools')).toBe(true);
    for (const bad of ['', '.hidden', '..', 'a/b', 'a\0b', 'x'.repeat(200)]) expect(isSkillDirName(bad)).toBe(false);
  });
});
