// What a command writes and which paths it names, as absolute normalised paths: the rules about
// shell start-up files, PATH folders, credentials and /proc judge these, so `/proc/1//environ`,
// `cd /proc && cat 1/environ` or `cp x ~` (into ~/.bashrc) name what they reach.
import path from 'node:path';
import type { Segment } from '../shell/wrappers';
import { baseName } from '../shell/wrappers';
import { resolvePath } from './forbidden-paths';

/** Options of cp, mv, install, ln that take a value. */
// process-wide: a constant table, never written
const COPY_VALUE = new Set(['-m', '-o', '-g', '-S', '-t', '--mode', '--owner', '--group', '--suffix', '--target-directory']);
/** Tools that change the files named as operands. */
// process-wide: a constant table, never written
const MODIFIES = new Set(['touch', 'truncate', 'chmod', 'chown', 'chgrp', 'mkdir', 'rm', 'unlink', 'shred', 'rmdir', 'setfacl', 'chattr']);

const operandsOf = (args: readonly string[], valued: ReadonlySet<string>) => {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (valued.has(a)) i++;
    else if (!a.startsWith('-') || a === '-') out.push(a);
  }
  return out;
};

/** The value of `-o X`, `-oX`, `--output X`, `--output=X` style options. */
function optionValues(args: readonly string[], short: string[], long: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const key = a.split('=', 1)[0];
    if (short.includes(a) || long.includes(a)) out.push(args[++i] ?? '');
    else if (long.includes(key) && a.includes('=')) out.push(a.slice(key.length + 1));
    else if (short.some((s) => a.startsWith(s) && a.length > s.length && !a.startsWith('--'))) out.push(a.slice(2));
  }
  return out;
}

/** The file of an `s/a/b/…w file` command (any delimiter), read by position: no backtracking regex. */
function substituteWrite(c: string): string | null {
  if (c[0] !== 's' || c.length < 4) return null;
  const d = c[1];
  let i = 2;
  for (let seen = 0; i < c.length && seen < 2; i++) {
    if (c[i] === '\\') i++;
    else if (c[i] === d) seen++;
  }
  const flags = /^[gpIiMme\d]{0,8}w\s*(\S.*)$/.exec(c.slice(i));
  return flags ? flags[1] : null;
}

/** File names written by a sed script's `w` command or `s///w` flag. */
function sedWrites(script: string): string[] {
  const out: string[] = [];
  for (const line of script.split(/\n|;/)) {
    const c = line.trim().replace(/^[\d,$/\\^.*[\]]{0,40}/, '');
    const w = /^[wW]\s*(\S.*)$/.exec(c)?.[1] ?? substituteWrite(c);
    if (w) out.push(w.trim());
  }
  return out;
}

/** The paths a command writes, as written (relative ones unresolved). */
function writtenOperands(name: string, args: readonly string[]): string[] {
  if (['cp', 'mv', 'install', 'ln', 'rsync'].includes(name)) {
    const target = optionValues(args, ['-t'], ['--target-directory']);
    const ops = operandsOf(args, COPY_VALUE);
    const dest = target[0] ?? ops.at(-1);
    if (dest === undefined) return [];
    const sources = target.length ? ops : ops.slice(0, -1);
    return [dest, ...sources.map((s) => `${dest}/${path.posix.basename(s)}`)];
  }
  if (name === 'tee') return operandsOf(args, new Set());
  if (name === 'sort') return optionValues(args, ['-o'], ['--output']);
  if (name === 'uniq') return operandsOf(args, new Set(['-f', '-s', '-w'])).slice(1, 2);
  if (name === 'dd') return args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3));
  if (name === 'find') return args.flatMap((a, i) => (/^-f(?:print0?|printf|ls)$/.test(a) ? [args[i + 1] ?? ''] : []));
  if (name === 'sed' || name === 'gsed') {
    const scripts = [...optionValues(args, ['-e'], ['--expression'])];
    const ops = operandsOf(args, new Set(['-e', '-f', '--expression', '--file', '-l']));
    if (!scripts.length && !args.some((a) => a === '-f' || a.startsWith('--file'))) scripts.push(ops.shift() ?? '');
    const inPlace = args.some((a) => /^-[a-zA-Z]*i|^--in-place/.test(a));
    return [...scripts.flatMap(sedWrites), ...(inPlace ? ops : [])];
  }
  if (/^(?:g|m|n)?awk$/.test(name)) return args.flatMap((a) => [...a.matchAll(/>>?\s*"([^"]{1,512})"/g)].map((m) => m[1]));
  if (name === 'curl') return optionValues(args, ['-o'], ['--output']);
  if (name === 'wget') return optionValues(args, ['-O'], ['--output-document']);
  if (name === 'tar' && args.some((a) => /^-?[a-zA-Z]*x/.test(a) || a === '--extract')) return optionValues(args, ['-C'], ['--directory']);
  if (name === 'unzip') return optionValues(args, ['-d'], []);
  if (MODIFIES.has(name)) return operandsOf(args, new Set(['-m', '-s', '-r', '--reference', '-d', '--date', '-t']));
  return [];
}

const absolute = (p: string, cwd: string, home: string) => (p === '' ? '' : path.posix.normalize(resolvePath(p, cwd, home)));

/** Every path a segment writes, absolute and normalised; redirect targets included. */
export function writeTargets(seg: Segment, cwd: string, home: string): string[] {
  const name = seg.argv.length ? baseName(seg.argv[0]) : '';
  const redirects = seg.redirects.filter((r) => r.target && r.body === undefined && r.op.includes('>') && !/^[<>]&$/.test(r.op)).map((r) => r.target!.value);
  return [...writtenOperands(name, seg.argv.slice(1)), ...redirects].filter((p) => p && p !== '-').map((p) => absolute(p, cwd, home));
}

/** Every path-like string of a segment (operands, `--opt=` values, redirect targets), absolute and normalised. */
export function namedPaths(seg: Segment, cwd: string, home: string): string[] {
  const raw = [...seg.argv.slice(1), ...seg.redirects.flatMap((r) => (r.target && r.body === undefined ? [r.target.value] : []))];
  const out: string[] = [];
  for (const a of raw) {
    const eq = a.indexOf('=');
    for (const p of eq > 0 ? [a, a.slice(eq + 1)] : [a]) {
      // Text with blanks is a message or a pattern, not a file name.
      if (p && !p.startsWith('-') && !p.includes('://') && !/\s/.test(p)) out.push(absolute(p, cwd, home));
    }
  }
  return out;
}
