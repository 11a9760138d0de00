import type { z } from 'zod';
import type { AppDb } from '@/db/client';
import { AppError, isAppError } from '../../core/errors';
import { logger } from '../../core/logger';
import { jobActor } from '../../jobs/job-actor';
import { defineJobKind, type JobHandler, type JobKind } from '../../jobs/kind';
import type { JobRegistry } from '../../jobs/registry';
import type { SharedSkillStore } from '../shared/shared-store';
import type { SkillCatalog } from './catalog';
import { type ImportResult, importSkill } from './imports';
import { type ImportInput, importInput } from './schemas';
import { uploadRecord } from './uploads';

/** The last path segment of a URL (a file or repository name), or its host when it has none. */
function lastSegment(raw: string): string {
  try {
    const u = new URL(raw);
    const parts = u.pathname.split('/').filter(Boolean);
    return parts.length ? decodeURIComponent(parts[parts.length - 1]).replace(/\.git$/, '') : u.host;
  } catch {
    return raw.split(/[\\/]/).filter(Boolean).pop() ?? raw;
  }
}

/** A title that names what is imported: `Import brand-guidelines.zip`, `Import @owner/slug@1.2.0 from ClawHub`. */
export function importTitle(p: ImportInput): string {
  const s = p.source;
  const what =
    s.kind === 'upload'
      ? (s.filename ?? 'an uploaded archive')
      : s.kind === 'clawhub'
        ? `${s.ref} from ClawHub`
        : s.kind === 'git'
          ? `${lastSegment(s.url)}${s.ref ? `@${s.ref}` : ''}${s.subdir ? `/${s.subdir.replace(/^\/+/, '')}` : ''} from git`
          : `${lastSegment(s.url)} from ${hostOf(s.url)}`;
  return `Import ${what}${p.slug ? ` as ${p.slug}` : ''}`;
}

const hostOf = (raw: string) => {
  try {
    return new URL(raw).host || raw;
  } catch {
    return raw;
  }
};

/** Records an upload's file name in the import's params, so the job's title names the file. */
export async function namedImport(db: AppDb, input: ImportInput): Promise<ImportInput> {
  if (input.source.kind !== 'upload') return input;
  const filename = await uploadRecord(db, input.source.uploadId).then(
    (u) => u.filename,
    () => null,
  );
  return filename ? { ...input, source: { ...input.source, filename } } : input;
}

/**
 * A failed import keeps its error code and details in the job's result (next to any partial result
 * such as the scanner's findings), so the UI and API clients can act on `exists`, `scan_blocked`,
 * `ambiguous_slug` (with the owners to pick from)… without parsing the message.
 */
function withCodeInResult(e: unknown): unknown {
  if (!isAppError(e)) return e;
  const { jobResult, ...details } = (e.details ?? {}) as { jobResult?: Record<string, unknown> } & Record<string, unknown>;
  const result = { code: e.code, ...(Object.keys(details).length ? { details } : {}), ...(e.hint ? { hint: e.hint } : {}), ...jobResult };
  const out = new AppError(e.code, e.message, { details: { ...details, jobResult: result }, hint: e.hint, cause: e });
  return out;
}

/** Imports one skill into the managed store (fetch → extract → validate → scan → install), then refreshes the catalog. */
export const skillImportJob: JobKind<ImportInput, ImportResult, z.input<typeof importInput>> = defineJobKind({
  name: 'skill.import',
  title: importTitle,
  params: importInput,
  concurrency: 2,
  maxAttempts: 1,
  resumable: false,
  retryPermission: 'skills.write',
  // An acknowledgement covers the findings its author saw; a retry may fetch other content.
  retryParams: ({ acknowledge: _ack, ...rest }) => rest,
});

export interface SkillJobDeps {
  dataDir: string;
  catalog: SkillCatalog;
  shared: SharedSkillStore;
}

/** The import handler, given where the store lives and the catalog to refresh. */
export function skillImportHandler(deps: SkillJobDeps): JobHandler<ImportInput, ImportResult> {
  return async (ctx) => {
    try {
      return await importSkill(
        {
          db: ctx.database.db,
          dataDir: deps.dataDir,
          shared: deps.shared,
          actor: jobActor(ctx.job),
          jobId: ctx.job.id,
          signal: ctx.signal,
          log: (l) => ctx.log(l, 'info'),
          progress: (p, s) => ctx.progress(p, s),
        },
        ctx.params,
      );
    } catch (e) {
      throw withCodeInResult(e);
    } finally {
      await deps.catalog.changed().catch((e) => logger.warn('the skill change could not be announced to other replicas', { error: String(e) }));
    }
  };
}

/** Registers the skill domain's kinds. */
export function registerSkillJobs(registry: JobRegistry, deps: SkillJobDeps): void {
  registry.register(skillImportJob, skillImportHandler(deps));
}
