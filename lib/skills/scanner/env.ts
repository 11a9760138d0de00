/**
 * Environment variables a script reads, by language, and the `undeclared-env` rule: every name a
 * script reads must be declared in `requires.env` or be the `primaryEnv`.
 */
import { type FindingSink, fileLineAt, matches, type Segment } from './model';
import { applyBlanks } from './strip';

/** Variables every shell or runtime has; reading them is not a requirement worth declaring. */
// process-wide: a constant table, never written
const COMMON_ENV = new Set(
  `HOME PATH USER USERNAME LOGNAME PWD OLDPWD SHELL TERM TERM_PROGRAM COLORTERM LANG LANGUAGE TMPDIR TMP TEMP
  HOSTNAME HOST IFS UID EUID PPID RANDOM SECONDS LINENO BASH BASH_SOURCE BASH_VERSION BASH_VERSINFO BASH_REMATCH
  BASH_ARGV BASHPID FUNCNAME PIPESTATUS OPTARG OPTIND OPTERR REPLY HOSTTYPE OSTYPE MACHTYPE SHLVL EDITOR VISUAL
  PAGER DISPLAY COLUMNS LINES TZ PS1 PS2 PS3 PS4 MAIL GROUPS DIRSTACK HISTFILE HISTSIZE ZSH_VERSION CI NO_COLOR
  FORCE_COLOR NODE_ENV NODE_OPTIONS NODE_PATH PYTHONPATH PYTHONIOENCODING PYTHONUNBUFFERED VIRTUAL_ENV
  CONDA_PREFIX NF NR FS OFS RS ORS FNR FILENAME PROGRAMFILES APPDATA LOCALAPPDATA USERPROFILE COMPUTERNAME
  SYSTEMROOT WINDIR HOMEDRIVE HOMEPATH PATHEXT COMSPEC PSMODULEPATH`.split(/\s+/),
);

export function isCommonEnv(name: string): boolean {
  const upper = name.toUpperCase();
  return COMMON_ENV.has(upper) || /^(?:XDG|LC|NPM)_/.test(upper);
}

const JS_ENV =
  /\bprocess\s*\.\s*env\s*(?:\??\.\s*([A-Za-z_$][\w$]*)|\[\s*['"`]([A-Za-z_$][\w$]*)['"`]\s*\])|\bDeno\s*\.\s*env\s*\.\s*get\s*\(\s*['"`](\w+)['"`]|\bBun\s*\.\s*env\s*\.\s*(\w+)/g;
const JS_DESTRUCTURE = /\{([^{}]{1,500})\}\s*=\s*process\s*\.\s*env\b/g;
const PY_ENV =
  /\bos\s*\.\s*environ\s*(?:\[\s*['"](\w+)['"]\s*\](?!\s*=[^=])|\.\s*(?:get|pop)\s*\(\s*['"](\w+)['"])|(?<![\w.])(?:os\s*\.\s*)?getenv\s*\(\s*['"](\w+)['"]|(?<![\w.])environ\s*\.\s*get\s*\(\s*['"](\w+)['"]/g;
const RUBY_ENV = /\bENV\s*(?:\[\s*['"](\w+)['"]\s*\]|\.\s*fetch\s*\(\s*['"](\w+)['"])/g;
const PERL_ENV = /\$ENV\s*\{\s*['"]?(\w+)['"]?\s*\}/g;
const PS_ENV = /\$env:([A-Za-z_]\w*)|\[(?:System\.)?Environment\]\s*::\s*GetEnvironmentVariable\s*\(\s*['"](\w+)['"]/gi;
const SHELL_ENV = /(?<!\\)\$\{?([A-Z_][A-Z0-9_]*)/g;
/**
 * `NAME=`, `NAME+=`, `NAME[i]=` at the start of a word (after `export`, `local`, `declare -x` … too:
 * those are words of their own). Names over 200 characters are not taken for assignments.
 */
const SHELL_ASSIGN = /(?<![^\s;&|(`])([A-Za-z_]\w{0,200})(?:\[[^\][\n]{0,200}\])?\+?=/g;
const SHELL_READ = /(?<![\w-])read\b([^\n;&|]*)/g;
const SHELL_LOOP = /(?<![\w-])(?:for|select)\s+([A-Za-z_]\w*)\s+in\b|(?<![\w-])getopts\s+\S+\s+([A-Za-z_]\w*)/g;

export interface EnvRead {
  name: string;
  offset: number;
}

/** Shell text with single-quoted strings blanked (no expansion happens inside them). */
function blankSingleQuoted(code: string): string {
  const ranges: [number, number][] = [];
  let inDouble = false;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '\\') i++;
    else if (c === '"') inDouble = !inDouble;
    else if (c === "'" && !inDouble) {
      const end = code.indexOf("'", i + 1);
      const stop = end === -1 ? code.length : end;
      ranges.push([i + 1, stop]);
      i = stop;
    }
  }
  return applyBlanks(code, ranges);
}

function shellReads(code: string): EnvRead[] {
  const assigned = new Set<string>();
  for (const m of matches(SHELL_ASSIGN, code)) assigned.add(m[1]);
  for (const m of matches(SHELL_LOOP, code)) assigned.add(m[1] ?? m[2]);
  for (const m of matches(SHELL_READ, code)) for (const w of m[1].split(/\s+/)) if (/^[A-Za-z_]\w*$/.test(w)) assigned.add(w);
  const out: EnvRead[] = [];
  const text = blankSingleQuoted(code);
  for (const m of matches(SHELL_ENV, text)) {
    if (/[A-Z]/.test(m[1]) && !assigned.has(m[1])) out.push({ name: m[1], offset: m.index });
  }
  return out;
}

function grouped(re: RegExp, code: string): EnvRead[] {
  const out: EnvRead[] = [];
  for (const m of matches(re, code)) {
    const name = m.slice(1).find((g) => g !== undefined);
    if (name) out.push({ name, offset: m.index });
  }
  return out;
}

/** Every env variable read by the segment's code, in order, common ones excluded. */
export function envReads(seg: Segment): EnvRead[] {
  let reads: EnvRead[] = [];
  if (seg.lang === 'js') {
    reads = grouped(JS_ENV, seg.code);
    for (const m of matches(JS_DESTRUCTURE, seg.code)) {
      for (const part of m[1].split(',')) {
        const name = part.trim().split(/[\s:=]/)[0];
        if (/^[A-Za-z_$][\w$]*$/.test(name)) reads.push({ name, offset: m.index });
      }
    }
  } else if (seg.lang === 'python') reads = grouped(PY_ENV, seg.code);
  else if (seg.lang === 'ruby') reads = grouped(RUBY_ENV, seg.code);
  else if (seg.lang === 'perl') reads = grouped(PERL_ENV, seg.code);
  else if (seg.lang === 'powershell') reads = grouped(PS_ENV, seg.code);
  else if (seg.lang === 'shell') reads = shellReads(seg.code);
  return reads.filter((r) => !isCommonEnv(r.name)).sort((a, b) => a.offset - b.offset);
}

/**
 * One warn per (file, variable) at its first read, for names not declared by the skill. Variables
 * first read on the same line share a finding (findings are unique per rule, file and line).
 */
export function undeclaredEnvRules(seg: Segment, declared: ReadonlySet<string>, sink: FindingSink): void {
  const seen = new Set<string>();
  const byLine = new Map<number, { offset: number; names: string[] }>();
  for (const r of envReads(seg)) {
    if (declared.has(r.name) || seen.has(r.name)) continue;
    seen.add(r.name);
    const line = fileLineAt(seg, r.offset);
    const entry = byLine.get(line) ?? { offset: r.offset, names: [] };
    entry.names.push(r.name);
    byLine.set(line, entry);
  }
  for (const { offset, names } of byLine.values()) {
    const what = names.length === 1 ? `environment variable ${names[0]}` : `environment variables ${names.join(', ')}`;
    sink.add(seg, 'undeclared-env', 'warn', offset, `Reads ${what}, not declared by the skill (requires.env / primaryEnv).`);
  }
}
