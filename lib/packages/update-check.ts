import { detectSystemManager, type ManagerContext, type NpmRegistryCache, npmOutdated, type OutdatedPackage, pipOutdated, systemOutdated } from '../runtime';
import type { SourceCheck, UpdateSource } from './updates-merge';

/** Each source gets its own budget, so a slow index never holds the others back. */
export const SOURCE_TIMEOUT_MS: Record<UpdateSource, number> = { pip: 180_000, npm: 120_000, apt: 180_000, apk: 180_000, github: 180_000 };

export type OutdatedCheck = (signal: AbortSignal) => Promise<{ outdated: OutdatedPackage[]; errors: { name: string; message: string }[] }>;

export interface CheckOptions {
  npmCache?: NpmRegistryCache;
  /** The GitHub-release source's check (it needs the database and the GitHub settings). */
  github?: OutdatedCheck;
  timeoutMs?: Partial<Record<UpdateSource, number>>;
  /** Check only these packages (by name) instead of every managed one. */
  names?: readonly string[];
}

/** The sources this host can check: pip, npm and GitHub releases always, plus its system manager. */
export function hostUpdateSources(): UpdateSource[] {
  const system = detectSystemManager();
  return system ? ['pip', 'npm', system, 'github'] : ['pip', 'npm', 'github'];
}

async function runCheck(source: UpdateSource, ctx: ManagerContext, opts: CheckOptions) {
  if (source === 'github') {
    if (!opts.github) throw new Error('The GitHub check was not configured for this run.');
    return opts.github(ctx.signal!);
  }
  if (source === 'pip') return pipOutdated(ctx, opts.names, { timeoutMs: 60_000 });
  if (source === 'npm') return npmOutdated(ctx, opts.names, { cache: opts.npmCache });
  const all = await systemOutdated(ctx);
  if (!opts.names) return all;
  const wanted = new Set(opts.names);
  return { outdated: all.outdated.filter((o) => wanted.has(o.name)), errors: all.errors.filter((e) => wanted.has(e.name)) };
}

/** Checks one source within its time budget; any failure becomes `ok: false` with the reason. */
export async function checkSource(source: UpdateSource, ctx: ManagerContext, opts: CheckOptions = {}): Promise<SourceCheck> {
  const budget = opts.timeoutMs?.[source] ?? SOURCE_TIMEOUT_MS[source];
  const controller = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, controller.signal]) : controller.signal;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`The ${source} check did not finish within ${Math.round(budget / 1000)} s.`));
    }, budget);
  });
  try {
    const r = await Promise.race([runCheck(source, { ...ctx, signal }, opts), timeout]);
    return { source, ok: true, outdated: r.outdated, errors: r.errors.map((e) => ({ name: e.name, message: e.message })) };
  } catch (e) {
    return { source, ok: false, error: (e as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
