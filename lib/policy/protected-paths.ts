// The paths the always-on rules and the deny groups protect, for globs: `cat /pr""oc/1/env*` names
// /proc/1/environ as surely as the literal does. A glob that could expand to a protected path is
// judged as that path (the rules then see its literal form); a relative path is judged where it
// resolves (`cd /proc && cat self/environ`).
import { resolvePath } from './forbidden-paths';
import { globPath, type Slot, touches } from './globs';
import type { Word } from './words';

interface Protected {
  slots: Slot[];
  /** A folder: a glob ending above it reaches it too. */
  dir: boolean;
  /** The literal the rules match, standing for the glob. */
  as: string;
}

const PID: Slot = { pid: true };
const P = (as: string, dir: boolean, ...slots: Slot[]): Protected => ({ slots, dir, as });

export const PROTECTED: readonly Protected[] = [
  P('/proc/self/environ', false, 'proc', PID, 'environ'),
  P('/var/run/docker.sock', false, 'var', 'run', 'docker.sock'),
  P('/run/docker.sock', false, 'run', 'docker.sock'),
  P('/var/run/docker.socket', false, 'var', 'run', 'docker.socket'),
  P('/run/docker.socket', false, 'run', 'docker.socket'),
  P('/etc/ld.so.preload', false, 'etc', 'ld.so.preload'),
  P('/proc/sysrq-trigger', false, 'proc', 'sysrq-trigger'),
  P('/proc/1/root', true, 'proc', '1', 'root'),
  ...['kernel', 'fs', 'net', 'vm'].map((d) => P(`/proc/sys/${d}/`, true, 'proc', 'sys', d)),
  ...['kernel', 'fs', 'class', 'devices', 'module'].map((d) => P(`/sys/${d}`, true, 'sys', d)),
  P('/dev/tcp/', true, 'dev', 'tcp'),
  P('/dev/udp/', true, 'dev', 'udp'),
];

/** Literal stand-ins for what the words could reach: protected paths a glob touches, relative paths resolved. */
export function reachedPaths(words: readonly Word[], cwd: string, home: string): string[] {
  const out: string[] = [];
  for (const w of words) {
    if (w.dynamic) continue;
    if (w.expands) {
      const globs = globPath(w.pattern ?? w.value, cwd, home);
      for (const p of PROTECTED) if (globs.some((g) => touches(g, p.slots, p.dir))) out.push(p.as);
    } else if (w.value && !w.value.startsWith('/') && !w.value.startsWith('-') && !w.value.includes('://')) {
      out.push(resolvePath(w.value, cwd, home));
    }
  }
  return out;
}
