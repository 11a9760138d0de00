import os from 'node:os';
import path from 'node:path';
import type { SkillsSettings } from '../../settings/skills-settings';
import type { SkillRoot, SourceKind } from '../types';

/** Skilldock's own store: immutable versions, and the managed root of symlinks to the active ones. */
export interface ManagedStore {
  storeDir: string;
  managedRoot: string;
  /** Private staging on the same filesystem as the store, so a staged skill moves in by rename. */
  stagingDir: string;
  uploadsDir: string;
}

export function managedStore(dataDir: string): ManagedStore {
  const base = path.join(path.resolve(dataDir), 'skills');
  return {
    storeDir: path.join(base, 'store'),
    managedRoot: path.join(base, 'managed'),
    stagingDir: path.join(base, 'staging'),
    uploadsDir: path.join(base, 'uploads'),
  };
}

export interface ResolvedRoot extends SkillRoot {
  label: string;
}

const LABELS: Record<SourceKind, string> = {
  workspace: 'Workspace',
  project: 'Project (.agents)',
  personal: 'Personal',
  managed: 'Managed (Skilldock)',
  bundled: 'Bundled',
  extra: 'Extra',
};

export const sourceLabel = (k: SourceKind) => LABELS[k];

/** The six roots, highest precedence first; empty settings mean the defaults under the data dir. */
export function resolveRoots(s: SkillsSettings, dataDir: string, home: string = os.homedir()): ResolvedRoot[] {
  const data = path.resolve(dataDir);
  const workspace = s.workspaceDir || path.join(data, 'workspace');
  const fixed: [SourceKind, string][] = [
    ['workspace', path.join(workspace, 'skills')],
    ['project', path.join(workspace, '.agents', 'skills')],
    ['personal', s.personalDir || path.join(home, '.agents', 'skills')],
    ['managed', managedStore(data).managedRoot],
    ['bundled', s.bundledDir || path.join(data, 'skills', 'bundled')],
  ];
  const roots: ResolvedRoot[] = fixed.map(([kind, p], i) => ({ kind, path: p, precedence: i, label: LABELS[kind] }));
  s.extraDirs.forEach((p, i) => roots.push({ kind: 'extra', path: p, precedence: fixed.length + i, label: `${LABELS.extra} ${i + 1}` }));
  return roots;
}
