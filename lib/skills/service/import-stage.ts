/**
 * The first half of an import, shared by imports and update checks: bring the bytes into private
 * staging, extract safely, validate SKILL.md, hash, check the allowed file types and scan — nothing
 * is installed here.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '@/lib/core/errors';
import type { SkillsSettings } from '../../settings/skills-settings';
import { contentHash, listSkillFiles } from '../files';
import { parseSkillMd } from '../manifest';
import { extractSkillArchive } from '../store';
import { assertFileTypesAllowed } from '../store/file-policy';
import type { ParsedSkill, ScanResult, SkillFile } from '../types';
import { scanSkillDir } from './build';
import type { Fetched } from './import-sources';

export interface StagedSkill {
  root: string;
  slug: string;
  manifest: ParsedSkill['manifest'];
  files: SkillFile[];
  contentHash: string;
  scan: ScanResult;
}

const MIB = 1024 * 1024;

async function readSkillTree(root: string) {
  const contents = new Map<string, Buffer>();
  const files = await listSkillFiles(root, { onFile: (p, b) => contents.set(p, b) });
  return { files, contents, hash: contentHash(files) };
}

/** Extracts (when an archive), validates, hashes and scans what `fetched` brought into `work`. */
export async function stageFetched(
  fetched: Fetched,
  o: {
    work: string;
    settings: SkillsSettings;
    slug?: string;
    signal?: AbortSignal;
    log: (line: string) => void;
    progress?: (percent: number, stage: string) => void;
  },
): Promise<StagedSkill> {
  let root = fetched.dir;
  if (fetched.archive) {
    o.progress?.(30, 'extracting');
    const out = await extractSkillArchive(fetched.archive, path.join(o.work, 'x'), { maxArchiveBytes: o.settings.uploadMaxMb * MIB }, o.signal);
    o.log(`extracted ${out.entries} entries (${out.bytes} bytes) from a ${out.format} archive`);
    root = out.root;
  }
  if (!root) throw new AppError('missing_skill_md', 'The source holds no skill folder.');
  o.progress?.(45, 'validating');
  const skillMd = await fsp.readFile(path.join(root, 'SKILL.md'), 'utf8').catch(() => null);
  if (skillMd === null) throw new AppError('missing_skill_md', 'The skill has no SKILL.md at its root.');
  const parsed = parseSkillMd(skillMd, { dirName: o.slug ?? fetched.suggestedSlug ?? undefined, sizeBytes: Buffer.byteLength(skillMd) });
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    throw new AppError('invalid_skill', `SKILL.md is invalid: ${errors.map((d) => `${d.line ? `line ${d.line}: ` : ''}${d.message}`).join('; ')}`, {
      details: { diagnostics: parsed.diagnostics },
    });
  }
  const slug = o.slug ?? parsed.manifest.name;
  const tree = await readSkillTree(root);
  o.log(`content hash ${tree.hash} over ${tree.files.length} files`);
  const typed = await assertFileTypesAllowed(root, o.settings, { contents: tree.contents, signal: o.signal });
  o.log(o.settings.allowBinaryFiles ? 'file types: every file allowed (allowBinaryFiles)' : `file types: ${typed.files} files checked, all allowed`);
  if (fetched.registry?.expectHashCheck) await fetched.registry.expectHashCheck(tree.hash);
  o.progress?.(60, 'scanning');
  const scan = await scanSkillDir(root, tree.files, parsed.manifest, tree.contents);
  const critical = scan.findings.filter((f) => f.severity === 'critical');
  o.log(`scanner: ${scan.verdict}, ${scan.findings.length} findings (${critical.length} critical)`);
  return { root, slug, manifest: parsed.manifest, files: tree.files, contentHash: tree.hash, scan };
}
