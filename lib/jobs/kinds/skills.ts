import { AppError, isAppError } from '@/lib/core/errors';
import { importInput, type ImportInput } from '../../skills/service/schemas';
import { importSkill } from '../../skills/service/imports';
import { systemActor, type Actor } from '../../auth/actor';
import type { JobRow } from '../types';
import type { JobKind } from '../types';

/** The user who queued the job, for the audit rows the job writes (the permission was checked when it was queued). */
const jobActor = (job: JobRow): Actor => ({ ...systemActor, kind: 'user', userId: job.createdBy ?? null, email: job.createdByLabel, label: job.createdByLabel });

const describe = (p: ImportInput) => {
  const s = p.source;
  const from = s.kind === 'upload' ? 'an upload' : s.kind === 'clawhub' ? `ClawHub ${s.ref}` : s.kind === 'git' ? `git ${s.url}${s.ref ? `@${s.ref}` : ''}` : s.url;
  return `Import skill${p.slug ? ` ${p.slug}` : ''} from ${from}`;
};

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
export const skillImportJob: JobKind<ImportInput> = {
  kind: 'skill.import',
  title: describe,
  params: importInput,
  concurrency: 2,
  maxAttempts: 1,
  resumable: false,
  async run(ctx) {
    const services = await ctx.services();
    try {
      return await importSkill(
        {
          db: services.database.db,
          dataDir: services.config.dataDir,
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
      services.skills.invalidate();
    }
  },
};
