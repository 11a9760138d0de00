// Where a redirect (or tee) may write and read inside the agent's own sandbox: ordinary files in the
// workspace, /tmp, /var/tmp and the agent's home — never a shell start-up file, a PATH folder, a
// credential, a dot-folder of the home (tool configs that run programs: ~/.gitconfig, ~/.ssh/config,
// pip.conf), a repository's .git folder (hooks), /proc, /sys or a device other than the harmless ones.

import type { Word } from '../shell/words';
import { isCredentialFile, isPathDir, isRcFile } from './deny-rules-host';
import { resolvePath } from './forbidden-paths';

export interface Place {
  cwd: string;
  home: string;
  workspaceRoot: string;
}

// process-wide: a constant table, never written
const DEVICES_OUT = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
// process-wide: a constant table, never written
const DEVICES_IN = new Set(['/dev/null', '/dev/zero', '/dev/random', '/dev/urandom', '/dev/stdin']);
const SCRATCH = ['/tmp', '/var/tmp'];

const under = (p: string, dir: string) => dir !== '/' && (p === dir || p.startsWith(`${dir}/`));

/** Why a write to `p` (absolute, normalised) is refused, or null for an ordinary file. */
export function writeRefusal(p: string, place: Place): string | null {
  if (DEVICES_OUT.has(p)) return null;
  if (isRcFile(p)) return 'a shell start-up file';
  if (isPathDir(p)) return 'a folder of PATH (or Skilldock’s tools)';
  if (isCredentialFile(p)) return 'a credential file';
  if (p.split('/').includes('.git')) return "a repository's .git folder (hooks and config run programs)";
  if (under(p, place.home) && (p.slice(place.home.length + 1).split('/')[0] ?? '').startsWith('.'))
    return 'a dot-file or dot-folder of the home (tool settings)';
  if ([place.workspaceRoot, ...SCRATCH, place.home].some((r) => under(p, r))) return null;
  return 'outside the workspace, /tmp, /var/tmp and the home';
}

/** Why a read from `p` is refused: devices other than the harmless ones (protected files have their own rules). */
export function readRefusal(p: string): string | null {
  if (p.startsWith('/dev/') && !DEVICES_IN.has(p)) return 'a device';
  return null;
}

export type TargetCheck = { ok: true } | { ok: false; target: string; why: string };

/** A redirect target as written: literal and one word, resolved where the command runs. */
export function judgeTarget(w: Word, write: boolean, place: Place): TargetCheck {
  if (w.dynamic || w.expands || w.substitution) return { ok: false, target: w.text, why: 'only known at run time' };
  const p = resolvePath(w.value, place.cwd, place.home);
  const why = write ? writeRefusal(p, place) : readRefusal(p);
  return why ? { ok: false, target: w.value, why } : { ok: true };
}
