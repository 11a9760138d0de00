import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { githubPackages } from '@/db/schema';
import type { Actor } from '../auth/actor';
import { AppError } from '../core/errors';
import { enqueue } from '../jobs/queue';
import type { JobRow } from '../jobs/types';
import { githubInstallJob, githubUninstallJob, githubUpdateJob, packageInstallJob, packageUninstallJob, packageUpdateJob } from './job-kinds';
import { checkSpec, type InstallPackageInput, type PackageAction, type UpdatePackageInput } from './schemas';

/** The installed GitHub package a spec names: `github:name`, or `github:owner/repo` looked up by repository. */
async function githubName(database: Database, name: string): Promise<string> {
  if (!name.includes('/')) return name;
  const [row] = await database.db.select({ name: githubPackages.name }).from(githubPackages).where(eq(githubPackages.repo, name));
  if (!row) throw new AppError('not_found', `github:${name} is not installed.`);
  return row.name;
}

/**
 * Queues the job for an install, uninstall or update (202): pip, npm and system specs run as
 * package.* jobs, github: specs as github.* jobs of the GitHub-release installer.
 */
export async function startPackageJob(
  database: Database,
  actor: Actor,
  action: PackageAction,
  body: InstallPackageInput | UpdatePackageInput | { spec: string },
): Promise<JobRow> {
  const checked = checkSpec(body.spec, action);
  if ('message' in checked) throw new AppError('validation', checked.message, { issues: [{ path: 'spec', message: checked.message }] });
  const { spec } = checked;
  if (spec.manager !== 'github') {
    if (action === 'install') return enqueue(database, actor, packageInstallJob, body, { trusted: true });
    if (action === 'uninstall') return enqueue(database, actor, packageUninstallJob, { spec: body.spec }, { trusted: true });
    return enqueue(database, actor, packageUpdateJob, body, { trusted: true });
  }
  if (action === 'install') {
    const b = body as InstallPackageInput;
    return enqueue(
      database,
      actor,
      githubInstallJob,
      {
        repo: spec.name,
        ...(spec.version ? { tag: spec.version } : {}),
        ...(b.overrides ? { overrides: b.overrides } : {}),
        ...(b.takeover ? { takeover: true } : {}),
      },
      { trusted: true },
    );
  }
  const name = await githubName(database, spec.name);
  if (action === 'uninstall') return enqueue(database, actor, githubUninstallJob, { name }, { trusted: true });
  const toTag = (body as UpdatePackageInput).toVersion;
  return enqueue(database, actor, githubUpdateJob, { name, ...(toTag ? { toTag } : {}) }, { trusted: true });
}
