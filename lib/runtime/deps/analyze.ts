import fs from 'node:fs/promises';
import path from 'node:path';
import { formatSpec } from '../spec';
import type { ManagerContext } from '../types';
import { checkDeps } from './check';
import { parseSkillDeps } from './frontmatter';
import { type ReadSkillFilesOptions, readSkillFiles } from './read';
import { resolveSkillDeps } from './resolve';
import { scanSkillFiles } from './scan';
import { pythonStdlibModules } from './stdlib';
import type { CheckOptions, DepDiagnostic, FileToScan, SkillDepsAnalysis } from './types';

export interface AnalyzeInput {
  /** SKILL.md text; read from `skillDir/SKILL.md` when omitted. */
  skillMd?: string;
  /** Script files; read from `skillDir` with `readSkillFiles` when omitted. */
  files?: FileToScan[];
  /** The skill folder (also put on PYTHONPATH for the check). */
  skillDir?: string;
  /** Extra local module names (when `files` is given without `skillDir`). */
  localModules?: string[];
}

export interface AnalyzeOptions extends CheckOptions {
  aliasOverrides?: Readonly<Record<string, string>>;
  read?: ReadSkillFilesOptions;
}

/** Parse, scan, resolve and check one skill's dependencies (declared, scanned, excluded, final with status). */
export async function analyzeSkillDeps(input: AnalyzeInput, ctx: ManagerContext, opts: AnalyzeOptions = {}): Promise<SkillDepsAnalysis> {
  const diagnostics: DepDiagnostic[] = [];
  let skillMd = input.skillMd;
  if (skillMd === undefined && input.skillDir) {
    try {
      skillMd = await fs.readFile(path.join(input.skillDir, 'SKILL.md'), 'utf8');
    } catch {
      diagnostics.push({ key: 'frontmatter', message: `no SKILL.md in ${input.skillDir}` });
    }
  }
  const parsed = parseSkillDeps(skillMd ?? '');
  diagnostics.push(...parsed.diagnostics);

  let files = input.files ?? [];
  const localModules = [...(input.localModules ?? [])];
  if (!input.files && input.skillDir) {
    const read = await readSkillFiles(input.skillDir, opts.read);
    files = read.files;
    localModules.push(...read.localModules);
    diagnostics.push(...read.diagnostics);
  }
  const scan = scanSkillFiles(files, {
    pythonStdlib: await pythonStdlibModules(opts.python ?? 'python3'),
    localModules,
    aliasOverrides: opts.aliasOverrides,
  });
  diagnostics.push(...scan.diagnostics);

  const resolved = resolveSkillDeps({ declared: parsed.declared, excluded: parsed.excluded, scanned: scan.deps, aliasOverrides: opts.aliasOverrides });
  const deps = await checkDeps(ctx, resolved.deps, { ...opts, skillDir: opts.skillDir ?? input.skillDir });
  return {
    declared: parsed.declared,
    excluded: parsed.excluded,
    scanned: scan.deps,
    ...resolved,
    deps,
    missing: deps.filter((d) => d.status === 'missing').map((d) => formatSpec(d.spec)),
    diagnostics,
  };
}
