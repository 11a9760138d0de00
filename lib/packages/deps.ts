import type { Database } from '@/db/client';
import type { Actor } from '../auth/actor';
import { AppError } from '../core/errors';
import { jobSpec } from '../jobs/kind';
import { enqueueTree } from '../jobs/queue';
import { analyzeSkillDeps, type CheckedDep, formatSpec, type ManagerContext, parsePackageSpec, type SkillDepsAnalysis } from '../runtime';
import { githubInstallJob, installDepsJob, packageInstallJob } from './job-kinds';
import type { DepsCheckInput } from './schemas';

/** The checked dependency as the API shows it: spec as text, where it came from, its status. */
function present(d: CheckedDep) {
  return {
    spec: formatSpec(d.spec),
    manager: d.spec.manager,
    name: d.spec.name,
    source: d.source,
    status: d.status,
    detail: d.detail,
    ...(d.importName ? { importName: d.importName } : {}),
    ...(d.alias ? { alias: d.alias } : {}),
    ...(d.where?.length ? { where: d.where } : {}),
    ...(d.line ? { line: d.line } : {}),
  };
}

/** An explicit deps list becomes a `deps:` block, so it goes through the same parser and diagnostics. */
function withExtraDeps(input: DepsCheckInput): string | undefined {
  if (!input.deps?.length) return input.skillMd;
  const block = `---\ndeps:\n${input.deps.map((d) => `  - ${JSON.stringify(d)}`).join('\n')}\n---\n`;
  if (input.skillMd !== undefined)
    throw new AppError('validation', 'Give either a SKILL.md or a deps list, not both.', { issues: [{ path: 'deps', message: 'not with skillMd' }] });
  return block;
}

export async function checkSkillDeps(ctx: ManagerContext, input: DepsCheckInput) {
  const analysis: SkillDepsAnalysis = await analyzeSkillDeps({ skillMd: withExtraDeps(input), files: input.files ?? [] }, ctx);
  return {
    declared: analysis.declared?.map((e) => ({ raw: e.raw, spec: formatSpec(e.spec), line: e.line })) ?? null,
    excluded: analysis.excluded.map((e) => ({ raw: e.raw, spec: formatSpec(e.spec), line: e.line })),
    scanned: analysis.scanned.map((s) => ({
      kind: s.kind,
      spec: formatSpec(s.spec),
      importName: s.importName ?? null,
      file: s.file,
      line: s.line,
      alias: s.alias ?? null,
    })),
    excludedScanned: analysis.excludedScanned.map((s) => formatSpec(s.spec)),
    deps: analysis.deps.map(present),
    missing: analysis.missing,
    diagnostics: analysis.diagnostics,
  };
}

/** Installs every missing dependency: one parent job, one install job per package (github: deps through the GitHub-release installer). */
export async function startDepsInstall(database: Database, actor: Actor, ctx: ManagerContext, input: DepsCheckInput) {
  const report = await checkSkillDeps(ctx, input);
  const missing = report.deps.filter((d) => d.status === 'missing');
  if (!missing.length) throw new AppError('conflict', 'Nothing to install: every dependency is satisfied.');
  const children = missing.map((d) => {
    // Each spec passed the deps grammar; the install grammar is checked again here and by the job kind's schema.
    const spec = parsePackageSpec(d.spec, { context: 'install' });
    return spec.manager === 'github'
      ? jobSpec(githubInstallJob, { repo: spec.name, ...(spec.version ? { tag: spec.version } : {}) })
      : jobSpec(packageInstallJob, { spec: d.spec });
  });
  const items = missing.map((d) => ({ spec: d.spec, from: '', to: d.spec }));
  const tree = await enqueueTree(database, actor, jobSpec(installDepsJob, { items }), children, { trusted: true });
  return { job: tree.parent, children: tree.children, skipped: [] as string[], report };
}
