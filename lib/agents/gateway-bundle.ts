// Several of an agent's skills with their files' bytes in one answer: a folder sync of a thousand
// skills reads a few bundles instead of a request per skill and per file.
import fsp from 'node:fs/promises';
import { mapLimit } from '../core/concurrency';
import { AppError } from '../core/errors';
import { readContainedFile } from '../skills/contained-read';
import { MAX_BUNDLE_SKILLS } from './schema';
import { type AgentsDeps, effectiveOf, MAX_FILE, servedHash, servedSkill } from './service';

/** Bytes carried by one answer; the files past it come without content. */
const MAX_BUNDLE_BYTES = 32 * 1024 * 1024;
const READ_PARALLEL = 8;

interface BundleFile {
  path: string;
  size: number;
  sha256: string;
  mode: number;
  contentBase64: string | null;
}

export async function gatewayBundle(deps: AgentsDeps, id: string, names: string[]) {
  const wanted = [...new Set(names.map((n) => n.trim()).filter(Boolean))];
  if (!wanted.length || wanted.length > MAX_BUNDLE_SKILLS) {
    throw new AppError('validation', `Ask for 1 to ${MAX_BUNDLE_SKILLS} skills per bundle (${wanted.length} named).`, {
      hint: 'Split the names into several requests.',
    });
  }
  const e = await effectiveOf(deps, id);
  const present = wanted.filter((n) => e.copies.has(n));
  const served = await Promise.all(
    present.map(async (name) => {
      const s = await servedSkill(deps, e, name);
      return { ...s, real: await fsp.realpath(s.dir) };
    }),
  );
  let budget = MAX_BUNDLE_BYTES;
  const skills = present.map((name) => ({ name, contentHash: servedHash(e, name) as string, files: [] as BundleFile[] }));
  const jobs = served.flatMap((s, i) =>
    s.files.map((f) => {
      const take = f.size <= MAX_FILE && f.size <= budget;
      if (take) budget -= f.size;
      const out: BundleFile = { path: f.path, size: f.size, sha256: f.sha256, mode: f.mode & 0o777, contentBase64: null };
      (skills[i] as (typeof skills)[number]).files.push(out);
      return { dir: s.dir, real: s.real, out, take };
    }),
  );
  await mapLimit(jobs, READ_PARALLEL, async ({ dir, real, out, take }) => {
    if (take) out.contentBase64 = (await readContainedFile(dir, out.path, MAX_FILE, real)).toString('base64');
  });
  return { agentId: e.agentId, version: e.version, skills, missing: wanted.filter((n) => !e.copies.has(n)) };
}
