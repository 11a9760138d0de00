// Which update source and key a spec names on this host: a bare system name means the host's apt or apk.
import { detectSystemManager } from '../runtime';
import { checkSpec } from './schemas';
import type { UpdateSource } from './updates-merge';

/** The update source and key a spec names (pip:x, npm:x, apt:x, apk:x or a bare system name), or the reason it names none. */
export function updateTarget(raw: string): { source: UpdateSource; name: string } | { message: string } {
  const r = checkSpec(raw, 'update');
  if ('message' in r) return r;
  const { spec } = r;
  if (spec.manager === 'pip' || spec.manager === 'npm' || spec.manager === 'github') return { source: spec.manager, name: spec.name };
  const system = spec.systemManager ?? detectSystemManager();
  if (!system) return { message: `This host has no apt or apk, so ${raw} names no package here.` };
  return { source: system, name: spec.name };
}
