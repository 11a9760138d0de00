// A skill folder into a maintenance container: one archive upload beside the old folder, then a
// constant-script swap, so a failed upload never leaves a half-written skill in place. Paths are
// checked before anything is sent; only files and folders reach the archive, never links.
import path from 'node:path/posix';
import { Readable } from 'node:stream';
import { AppError } from '@/lib/core/errors';
import { toAppError } from '@/lib/sandbox/docker/connection';
import { runExec } from '@/lib/sandbox/docker/exec';
import { buildTar, type TarEntry } from '@/lib/sandbox/docker/tar';
import { isSkillDirName, SKILLS_ROOT } from '../../sandbox/images/snapshot-names';
import type { Maintenance } from './maintenance';

export const MAX_SKILL_ENTRIES = 2000;
export const MAX_SKILL_ENTRY_BYTES = 32 * 1024 * 1024;
export const MAX_SKILL_BYTES = 256 * 1024 * 1024;
const SCRIPT_TIMEOUT_MS = 120_000;

function scriptFailed(what: string, r: { exitCode: number; stderr: string }): AppError {
  return new AppError('sandbox_error', `${what} failed (exit ${r.exitCode}): ${r.stderr.trim().slice(0, 300)}`);
}

/** Runs a constant script; names reach it only as arguments. */
export async function runScript(m: Maintenance, what: string, script: string, args: string[]): Promise<void> {
  if (m.closed) throw new AppError('invalid_state', 'the maintenance container is closed');
  const r = await runExec(m.conn, m.containerId, {
    argv: ['sh', '-c', script, `skilldock-${what}`, ...args],
    timeoutMs: SCRIPT_TIMEOUT_MS,
    maxOutputBytes: 64 * 1024,
  });
  if (r.exitCode !== 0) throw scriptFailed(what, r);
}
export interface SkillFile {
  /** Relative to the skill folder, `/`-separated. */
  path: string;
  data?: Buffer;
  stream?: Readable;
  /** Permission bits (setuid, setgid and sticky are dropped); 0644 when absent. */
  mode?: number;
}

function badBundle(message: string, field = 'files'): AppError {
  return new AppError('validation', `skill bundle: ${message}`, { issues: [{ path: field, message }] });
}

/** Normalised relative paths, the folders they need, and every refusal before anything is sent. */
function planEntries(files: SkillFile[]): { dirs: string[]; files: { rel: string; file: SkillFile }[] } {
  if (files.length > MAX_SKILL_ENTRIES) throw badBundle(`more than ${MAX_SKILL_ENTRIES} files`);
  const dirs = new Set<string>();
  const seen = new Set<string>();
  const out: { rel: string; file: SkillFile }[] = [];
  let total = 0;
  for (const file of files) {
    const p = file.path;
    if (typeof p !== 'string' || !p || p.includes('\0') || p.startsWith('/') || p.includes('\\'))
      throw badBundle(`invalid path ${JSON.stringify(String(p).slice(0, 80))}`);
    const parts = p.split('/').filter((s) => s !== '' && s !== '.');
    if (parts.length === 0 || parts.includes('..')) throw badBundle(`path ${JSON.stringify(p.slice(0, 80))} leaves the skill folder`);
    const rel = parts.join('/');
    if (seen.has(rel)) throw badBundle(`${rel} appears twice`);
    seen.add(rel);
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
    if (!file.data === !file.stream) throw badBundle(`${rel} needs exactly one of data and stream`);
    if (file.data) {
      if (file.data.length > MAX_SKILL_ENTRY_BYTES) throw badBundle(`${rel} is larger than ${MAX_SKILL_ENTRY_BYTES} bytes`);
      total += file.data.length;
    }
    out.push({ rel, file });
  }
  for (const d of dirs) if (seen.has(d)) throw badBundle(`${d} is both a file and a folder`);
  if (total > MAX_SKILL_BYTES) throw badBundle(`larger than ${MAX_SKILL_BYTES} bytes`);
  return { dirs: [...dirs].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b)), files: out };
}

async function readCapped(s: Readable, rel: string, room: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of s) {
    n += (c as Buffer).length;
    if (n > MAX_SKILL_ENTRY_BYTES) throw badBundle(`${rel} is larger than ${MAX_SKILL_ENTRY_BYTES} bytes`);
    if (n > room) throw badBundle(`larger than ${MAX_SKILL_BYTES} bytes`);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

/** One tar entry without the end-of-archive blocks buildTar appends. */
const entryBlocks = (e: TarEntry): Buffer => {
  const t = buildTar([e]);
  return t.subarray(0, t.length - 1024);
};

async function* skillTar(top: string, plan: ReturnType<typeof planEntries>): AsyncGenerator<Buffer> {
  const mtime = new Date();
  yield entryBlocks({ type: 'dir', name: top, mode: 0o755, mtime });
  for (const d of plan.dirs) yield entryBlocks({ type: 'dir', name: `${top}/${d}`, mode: 0o755, mtime });
  let total = plan.files.reduce((n, f) => n + (f.file.data?.length ?? 0), 0);
  for (const { rel, file } of plan.files) {
    let data = file.data;
    if (!data) {
      data = await readCapped(file.stream as Readable, rel, MAX_SKILL_BYTES - total);
      total += data.length;
    }
    yield entryBlocks({ type: 'file', name: `${top}/${rel}`, data, mode: (file.mode ?? 0o644) & 0o777, mtime });
  }
  yield Buffer.alloc(1024);
}

// $1 is the skill folder name (checked by the caller). The new folder is unpacked beside the old
// one and swapped in, so a failed upload never leaves a half-written skill in place.
export const PREPARE_SCRIPT = `set -e
mkdir -p ${SKILLS_ROOT}
rm -rf -- "${SKILLS_ROOT}/.$1.new"`;
export const SWAP_SCRIPT = `set -e
d=${SKILLS_ROOT}
[ -d "$d/.$1.new" ]
rm -rf -- "$d/.$1.old"
if [ -e "$d/$1" ] || [ -L "$d/$1" ]; then mv -- "$d/$1" "$d/.$1.old"; fi
mv -- "$d/.$1.new" "$d/$1"
rm -rf -- "$d/.$1.old"`;
export const REMOVE_SCRIPT = `rm -rf -- "${SKILLS_ROOT}/$1" "${SKILLS_ROOT}/.$1.new" "${SKILLS_ROOT}/.$1.old"`;

function checkSkillName(name: string): string {
  if (!isSkillDirName(name)) throw badBundle('invalid skill folder name', 'name');
  return name;
}

/** Puts the skill at <SKILLS_ROOT>/<name> in one archive upload, replacing a folder of that name. */
export async function copySkill(m: Maintenance, input: { name: string; files: SkillFile[] }): Promise<void> {
  const name = checkSkillName(input.name);
  const plan = planEntries(input.files);
  await runScript(m, 'skill-prepare', PREPARE_SCRIPT, [name]);
  const source = Readable.from(skillTar(`.${name}.new`, plan));
  const abort = new AbortController();
  let sourceError: unknown = null;
  source.on('error', (e) => {
    sourceError = e;
    abort.abort();
  });
  try {
    await m.conn.stream.getContainer(m.containerId).putArchive(source, { path: SKILLS_ROOT, abortSignal: abort.signal });
  } catch (e) {
    throw sourceError ?? toAppError(e, m.conn.endpoint, `write ${SKILLS_ROOT}/${name}`);
  }
  if (sourceError) throw sourceError;
  await runScript(m, 'skill-swap', SWAP_SCRIPT, [name]);
}

/** The same archive as one buffer, for backends that take files whole (the upload's size is capped above). */
export async function skillArchive(name: string, files: SkillFile[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of skillTar(`.${checkSkillName(name)}.new`, planEntries(files))) chunks.push(c);
  return Buffer.concat(chunks);
}

export async function removeSkill(m: Maintenance, name: string): Promise<void> {
  await runScript(m, 'skill-remove', REMOVE_SCRIPT, [checkSkillName(name)]);
}

/** The skill folder of `name` inside a sandbox. */
export const skillDir = (name: string): string => path.join(SKILLS_ROOT, checkSkillName(name));
