// The paths the always-on rules and the deny groups protect, for globs: `cat /pr""oc/1/env*` names
// /proc/1/environ as surely as the literal does. A glob that could expand to a protected path is
// judged as that path (the rules then see its literal form); a relative path is judged where it
// resolves (`cd /proc && cat self/environ`).

import { type GlobPath, globPath, type Slot, touches } from '../shell/globs';
import type { Word } from '../shell/words';
import { resolvePath } from './forbidden-paths';

/**
 * A protected path is touched by a glob that names it or something under it. A glob ending above
 * it (`ls /proc/*`) lists names only, as the literal folder does; the profile's forbidden paths are
 * stricter (see forbidden-paths.ts).
 */
interface Protected {
  slots: Slot[];
  /** A file: nothing is under it, so only a glob of the same depth names it. */
  file: boolean;
  /** The literal the rules match, standing for the glob. */
  as: string;
}

const PID: Slot = { pid: true };
const F = (as: string, ...slots: Slot[]): Protected => ({ slots, as, file: true });
const D = (as: string, ...slots: Slot[]): Protected => ({ slots, as, file: false });

export const PROTECTED: readonly Protected[] = [
  F('/proc/self/environ', 'proc', PID, 'environ'),
  F('/var/run/docker.sock', 'var', 'run', 'docker.sock'),
  F('/run/docker.sock', 'run', 'docker.sock'),
  F('/var/run/docker.socket', 'var', 'run', 'docker.socket'),
  F('/run/docker.socket', 'run', 'docker.socket'),
  F('/etc/ld.so.preload', 'etc', 'ld.so.preload'),
  F('/proc/sysrq-trigger', 'proc', 'sysrq-trigger'),
  D('/proc/1/root', 'proc', '1', 'root'),
  ...['kernel', 'fs', 'net', 'vm'].map((d) => D(`/proc/sys/${d}/`, 'proc', 'sys', d)),
  ...['kernel', 'fs', 'class', 'devices', 'module'].map((d) => D(`/sys/${d}`, 'sys', d)),
];

/** Literal stand-ins for what the words could reach: protected paths a glob touches, relative paths resolved. */
export function reachedPaths(words: readonly Word[], cwd: string, home: string): string[] {
  const out: string[] = [];
  for (const w of words) {
    if (w.dynamic) continue;
    if (w.expands) {
      const globs = globPath(w.pattern ?? w.value, cwd, home);
      const names = (g: GlobPath, p: Protected) => (g.any || !p.file || g.segments.length === p.slots.length) && touches(g, p.slots, false);
      for (const p of PROTECTED) if (globs.some((g) => names(g, p))) out.push(p.as);
    } else if (w.value && !w.value.startsWith('/') && !w.value.startsWith('-') && !w.value.includes('://')) {
      out.push(resolvePath(w.value, cwd, home));
    }
  }
  return out;
}
