// `allowedCommands`: `*` allows any command name (it does not count as naming one, so high-risk
// commands stay blocked); an entry with a `/` or a leading `~` must equal the executable as
// written (after `~` expansion); a plain name matches the executable's basename, ignoring case.
// `cd`, `pushd`, `popd`, `true`, `false`, `:`, `test` and `[` need no entry.

export interface AllowlistView {
  entries: readonly string[];
  home?: string;
}

const expandHome = (p: string, home: string | undefined) => (home && (p === '~' || p.startsWith('~/')) ? home + p.slice(1) : p);
const pathLike = (e: string) => e.includes('/') || e.startsWith('~');
const base = (s: string) => s.slice(s.lastIndexOf('/') + 1).toLowerCase();

/** An entry other than `*` names this executable. */
export function explicitlyListed(exe: string, list: AllowlistView): boolean {
  const written = expandHome(exe, list.home);
  for (const e of list.entries) {
    if (e === '*') continue;
    if (pathLike(e) ? expandHome(e, list.home) === written : base(written) === e.toLowerCase()) return true;
  }
  return false;
}

/**
 * Builtins that run nothing and only move or report the shell's state: a strict list does not need
 * to name them (the folder `cd` moves to is still checked against the path rules).
 */
// process-wide: a constant table, never written
const NEUTRAL_BUILTINS = new Set(['cd', 'pushd', 'popd', 'true', 'false', ':', 'test', '[', '[[']);

export function allowed(exe: string, list: AllowlistView): boolean {
  return list.entries.includes('*') || NEUTRAL_BUILTINS.has(exe) || explicitlyListed(exe, list);
}
