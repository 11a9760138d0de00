// Forbidden paths and workspace-only over the path-like arguments of a segment (and its redirect
// targets): normalised, `~` expanded, relative ones resolved against the working directory, `..`
// folded. A path the engine cannot know (a variable, a glob reaching above a checked folder) is
// judged by the folder it could reach.
import path from 'node:path';
import { type GlobPath, globPath, literalPrefix, tildeHome, touches } from '../shell/globs';
import type { Word } from '../shell/words';

export interface PathRules {
  forbiddenPaths: readonly string[];
  workspaceOnly: boolean;
  workspaceRoot: string;
  cwd: string;
  home: string;
}

export type PathFinding = { rule: 'forbidden_path' | 'workspace_only'; reason: string } | null;

/** Paths every command may use whatever the rules say. */
// process-wide: a constant table, never written
const ALWAYS_OK = new Set(['/dev/null', '/dev/stdin', '/dev/stdout', '/dev/stderr']);

const under = (p: string, dir: string) => dir === '/' || p === dir || p.startsWith(`${dir}/`);

export function expandHome(p: string, home: string): string {
  return p === '~' || p.startsWith('~/') ? home + p.slice(1) : p;
}

/** `~user`, `~+`, `~-` at the start of a path: the folder, or null when it cannot be known. */
function tildeUser(p: string, cwd: string, home: string): string | null | undefined {
  if (!p.startsWith('~') || p === '~' || p.startsWith('~/')) return undefined;
  const slash = p.indexOf('/');
  const dir = tildeHome(slash < 0 ? p.slice(1) : p.slice(1, slash), home, cwd);
  return dir === null ? null : dir + (slash < 0 ? '' : p.slice(slash));
}

export function resolvePath(p: string, cwd: string, home: string): string {
  return path.posix.resolve(cwd, tildeUser(p, cwd, home) ?? expandHome(p, home));
}

/** The path-like strings of one word: the word itself, or the value of `--opt=/x` / `if=/x`. */
export function pathCandidates(w: Word): string[] {
  const v = w.value;
  const out: string[] = [];
  const eq = v.indexOf('=');
  if (eq > 0 && /^-{0,2}[A-Za-z][\w-]{0,63}=/.test(v)) out.push(v.slice(eq + 1));
  else out.push(v);
  // A bare glob (`*`, `.s*`) expands to names in the working directory: a path too.
  return out.filter(
    (p) => p.startsWith('/') || p.startsWith('~') || p.startsWith('./') || p.startsWith('../') || p === '..' || p.includes('/') || (w.expands && p === v),
  );
}

const segmentsOf = (p: string) => p.split('/').filter((x) => x !== '');

function finding(raw: string, f: string): PathFinding {
  return { rule: 'forbidden_path', reason: `"${raw}" is under the forbidden path ${f}.` };
}

/** A glob (or an unknowable path): every forbidden folder it could reach, and whether it stays in the workspace. */
function judgeGlob(raw: string, globs: GlobPath[], forbidden: string[], rules: PathRules): PathFinding {
  for (const f of forbidden) {
    if (globs.some((g) => touches(g, segmentsOf(f), true))) return finding(raw, f);
  }
  if (rules.workspaceOnly && globs.some((g) => !under(literalPrefix(g) ?? '/', rules.workspaceRoot)))
    return { rule: 'workspace_only', reason: `"${raw}" could reach outside the workspace ${rules.workspaceRoot}.` };
  return null;
}

function judge(raw: string, w: Word, rules: PathRules): PathFinding {
  const forbidden = rules.forbiddenPaths.map((f) => path.posix.resolve('/', expandHome(f, rules.home)));
  // An unknown part or an unknown `~user` can be any path at all.
  if (w.dynamic || tildeUser(raw, rules.cwd, rules.home) === null) return judgeGlob(raw, [{ any: true }], forbidden, rules);
  // Only an unquoted glob expands: the whole word's pattern decides; an `=` value is matched as a pattern too.
  if (w.expands) return judgeGlob(raw, globPath(raw === w.value ? (w.pattern ?? raw) : raw, rules.cwd, rules.home), forbidden, rules);
  const p = resolvePath(raw, rules.cwd, rules.home);
  if (ALWAYS_OK.has(p)) return null;
  for (const f of forbidden) if (under(p, f)) return finding(raw, f);
  if (rules.workspaceOnly && !under(p, rules.workspaceRoot))
    return { rule: 'workspace_only', reason: `"${raw}" is outside the workspace ${rules.workspaceRoot}.` };
  return null;
}

export function checkPaths(words: readonly Word[], redirectTargets: readonly Word[], rules: PathRules): PathFinding {
  if (!rules.forbiddenPaths.length && !rules.workspaceOnly) return null;
  if (rules.workspaceOnly && !under(path.posix.resolve('/', rules.cwd), rules.workspaceRoot)) {
    return { rule: 'workspace_only', reason: `The working directory ${rules.cwd} is outside the workspace ${rules.workspaceRoot}.` };
  }
  for (const w of [...words, ...redirectTargets]) {
    for (const p of pathCandidates(w)) {
      const f = judge(p, w, rules);
      if (f) return f;
    }
    // An argument only known at run time could be any path.
    if (w.dynamic && !pathCandidates(w).length) {
      return { rule: rules.workspaceOnly ? 'workspace_only' : 'forbidden_path', reason: `"${w.text}" is only known at run time, so it could be any path.` };
    }
  }
  return null;
}
