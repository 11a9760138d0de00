import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { type Database, openDatabase } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { setupFirstOwner, userCount } from './auth/users';
import { type Config, loadConfig } from './core/config';
import { randomToken } from './core/ids';
import { logger } from './core/logger';
import { dockerStatus } from './docker/client';
import { recoverGithubInstalls } from './github/install/recovery';
import { registerBuiltinJobs } from './jobs/builtin';
import { onJobsFinished } from './jobs/effects';
import { JobEventHub } from './jobs/hub';
import { JobRegistry } from './jobs/registry';
import { JobWorker } from './jobs/worker';
import { PackageRuntime } from './packages/context';
import { PACKAGES_CHANGED } from './packages/job-kinds';
import { registerPackageJobs } from './packages/jobs';
import { startUpdateScheduler } from './packages/update-requests';
import { parseKey, type SecretBox, secretBox } from './secrets/crypto';
import { SkillCatalog } from './skills/service/catalog';
import { registerSkillJobs } from './skills/service/jobs';
import { managedStore } from './skills/service/roots';
import { recoverStore } from './skills/store';

export interface Services {
  config: Config;
  database: Database;
  hub: JobEventHub;
  worker: JobWorker | null;
  /** Every job kind this process runs, with its handler; the worker, the generic start route and retry look kinds up here. */
  jobKinds: JobRegistry;
  /** The runtime dir's package side: manager contexts, the cached runtime report, change listeners. */
  packages: PackageRuntime;
  authSecret: string;
  /** Seals stored secrets (AES-256-GCM) with SKILLDOCK_SECRET_KEY or a key generated once into the data dir. */
  secrets: SecretBox;
  startedAt: Date;
  version: string;
  /** Stops the scheduled update checker (runs with the worker). */
  stopScheduler: () => void;
  /** The live skill catalog of this process (discovery, scanner verdicts, gating, search). */
  skills: SkillCatalog;
  stopSkillEvents: () => void;
}

/** Reads a secret from the data dir, creating it once (mode 0600) if absent. */
export function persistentSecret(dataDir: string, name: string, bytes = 48): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, name);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const value = randomToken(bytes);
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, value + '\n', { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(tmp, file); // fails if another process won the race; then theirs is used
    } catch {
      /* keep the existing one */
    } finally {
      fs.unlinkSync(tmp);
    }
    return fs.readFileSync(file, 'utf8').trim();
  }
}

function appVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export interface StartOptions {
  config?: Config;
  /** Run the job worker in this process (default: config.SKILLDOCK_WORKER). */
  worker?: boolean;
}

/** Opens and migrates the database, bootstraps the first owner from env, starts the event hub and worker. */
export async function startServices(opts: StartOptions = {}): Promise<Services> {
  const config = opts.config ?? loadConfig();
  const authSecret = config.NEXTAUTH_SECRET ?? persistentSecret(config.dataDir, 'auth-secret');
  const secrets = secretBox(parseKey(config.SKILLDOCK_SECRET_KEY ?? persistentSecret(config.dataDir, 'secret-key', 32)));
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: config.pgliteDir });
  try {
    await migrateDatabase(database);
  } catch (e) {
    await database.close().catch(() => undefined);
    throw e;
  }
  if (config.SKILLDOCK_ADMIN_EMAIL && config.SKILLDOCK_ADMIN_PASSWORD && (await userCount(database.db)) === 0) {
    await setupFirstOwner(database.db, { email: config.SKILLDOCK_ADMIN_EMAIL.toLowerCase(), name: 'Owner', password: config.SKILLDOCK_ADMIN_PASSWORD });
    logger.info('created the first owner from SKILLDOCK_ADMIN_EMAIL', { email: config.SKILLDOCK_ADMIN_EMAIL });
  }
  // GitHub installs interrupted by a crash are made consistent before any job or route touches them.
  await recoverGithubInstalls(database.db, config.runtimeDir)
    .then((actions) => actions.forEach((a) => logger.warn('github recovery', { path: a.path, action: a.action })))
    .catch((e) => logger.error('github recovery failed; use Repair on the GitHub tab', { error: String(e) }));
  await recoverStore(managedStore(config.dataDir)).catch((e) => logger.error('skill store recovery failed', { error: String(e) }));
  const hub = new JobEventHub(database);
  await hub.start();
  const version = appVersion();
  const skills = new SkillCatalog({ db: database.db, dataDir: config.dataDir, runtimeDir: config.runtimeDir });
  const packages = new PackageRuntime(config.runtimeDir);
  const jobKinds = new JobRegistry();
  registerBuiltinJobs(jobKinds, { engineStatus: () => dockerStatus(5000) });
  registerPackageJobs(jobKinds, { runtime: packages, secrets, hub, version });
  registerSkillJobs(jobKinds, { dataDir: config.dataDir, catalog: skills });
  // What changes installed packages re-gates the catalog: installs in this process tell the package
  // runtime directly; jobs that ended on other replicas arrive as state events.
  const offPackages = packages.onChanged(() => skills.packagesChanged());
  const offRemote = onJobsFinished(hub, jobKinds, PACKAGES_CHANGED, () => skills.packagesChanged());
  const stopSkillEvents = () => {
    offPackages();
    offRemote();
  };
  // Every handler's dependencies exist by now, so the worker may claim jobs at once.
  const runWorker = opts.worker ?? config.SKILLDOCK_WORKER;
  const worker = runWorker
    ? new JobWorker(database, hub, jobKinds, { concurrency: config.SKILLDOCK_WORKER_CONCURRENCY, leaseMs: config.SKILLDOCK_JOB_LEASE_MS })
    : null;
  await worker?.start();
  const stopScheduler = worker ? startUpdateScheduler(database) : () => undefined;
  const services: Services = {
    config,
    database,
    hub,
    worker,
    jobKinds,
    packages,
    authSecret,
    secrets,
    startedAt: new Date(),
    version,
    stopScheduler,
    skills,
    stopSkillEvents,
  };
  return services;
}

export async function stopServices(s: Services): Promise<void> {
  s.stopScheduler();
  s.stopSkillEvents();
  await s.skills.close();
  await s.worker?.stop();
  await s.hub.stop();
  await s.database.close();
}

const KEY = Symbol.for('skilldock.services');
const g = globalThis as unknown as Record<symbol, Promise<Services> | undefined>;

/**
 * The process-wide services. server.ts starts them before serving; route bundles (which load their
 * own copy of this module) find the same instance on globalThis.
 */
export function getServices(): Promise<Services> {
  return (g[KEY] ??= startServices());
}

export function setServices(p: Promise<Services>): void {
  g[KEY] = p;
}
