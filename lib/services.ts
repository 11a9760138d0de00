import 'server-only';
import os from 'node:os';
import { openDatabase } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { AgentsMemo } from './agents/memo';
import { AgentProbeCache } from './agents/probe-cache';
import { agentSkillRefs, effectiveOf } from './agents/service';
import { agentsOfConfig } from './agents/store';
import { agentsDeps } from './agents-deps';
import { AccessService } from './auth/service';
import { ensureSetupToken, removeSetupToken } from './auth/setup-token';
import { TokenCache } from './auth/token-cache';
import { UserCache } from './auth/user-cache';
import { userCount } from './auth/users';
import { appVersion, bootstrapOwner, lockDirs, persistentSecret } from './boot-steps';
import { HostRequests } from './cluster/host-requests';
import { installationId } from './cluster/installation';
import { ChangeFeed, onLocalPublish } from './cluster/invalidation';
import { Replica } from './cluster/replica';
import { SandboxLeaseStore } from './cluster/sandbox-lease';
import { scrubSecretEnv } from './core/child-env';
import { type Config, loadConfig } from './core/config';
import { logger } from './core/logger';
import { RateLimiter } from './core/rate-limit';
import { dockerStatus } from './docker/client';
import { gatewayDeviceKey } from './gateways/device-key';
import { dockerGatewayAccess } from './gateways/docker-engine';
import { queueSync, registerGatewayJobs } from './gateways/jobs';
import { RemoteOpenClawAccess } from './gateways/openclaw/remote-access';
import { GatewaysService } from './gateways/service';
import { recoverGithubInstalls } from './github/install/recovery';
import { bundleStarter } from './installs/generations/bundle-apply';
import { registerInstallJobs } from './installs/jobs/handlers';
import { assertNoInstalls, markUpdatable } from './installs/records/skill-usage';
import { registerBuiltinJobs } from './jobs/builtin';
import { onJobsFinished } from './jobs/effects';
import { JobEventHub } from './jobs/hub';
import { JobListCache } from './jobs/list-cache';
import { JobRegistry } from './jobs/registry';
import { JobWorker } from './jobs/worker';
import { PackageRuntime } from './packages/context';
import { PACKAGES_CHANGED } from './packages/job-kinds';
import { registerPackageJobs } from './packages/jobs';
import { ApprovalDecisions } from './policy/approvals/approvals';
import { ExecRoutes } from './policy/exec/run';
import { PolicyService } from './policy/service';
import { registerSandboxJobs } from './sandbox/check/job';
import { SandboxUsage } from './sandbox/config/in-use';
import { SandboxConfigService } from './sandbox/config/service';
import { SandboxActivity } from './sandbox/docker/activity';
import { DockerClients } from './sandbox/docker/connection';
import { ImageProbeCache } from './sandbox/images/image-probe';
import { InstanceLocks } from './sandbox/instances/locks';
import { type InstanceDeps, instanceLister } from './sandbox/instances/service';
import { networkCheckProbes } from './sandbox/network/check-probe';
import { startNetworkEnforcement } from './sandbox/network/enforcement';
import { startNetworkReconciler } from './sandbox/network/reconcile';
import { parseKey, secretBox } from './secrets/crypto';
import type { Services } from './services-shape';
import { closeScanPool, configureScanPool } from './skills/scanner';
import { SkillCatalog } from './skills/service/catalog';
import { registerSkillJobs } from './skills/service/jobs';
import { managedStore } from './skills/service/roots';
import { registerSharedStore, unregisterSharedStore } from './skills/shared/registry';
import { SharedSkillStore } from './skills/shared/shared-store';
import { recoverStore, sweepStaging } from './skills/store';
import { registerSkillUpdateJobs } from './skills/updates/jobs';
import { SessionRegistry } from './terminal/registry';
import { RelayVerifier } from './terminal/relay';
import { TerminalService } from './terminal/service';
import { transcriptsDir } from './terminal/transcript';
import { transcriptRecorder } from './terminal/transcript-recorders';
import { startTranscriptSweeper } from './terminal/transcript-store';
import { startWorkerTasks } from './worker-tasks';

export type { Services };

export interface StartOptions {
  config?: Config;
  /** Run the job worker in this process (default: config.SKILLDOCK_WORKER). */
  worker?: boolean;
}

/**
 * Takes the data dir for this process, then opens and migrates the database, bootstraps the first
 * owner from env, recovers crash leftovers, starts the event hub and worker.
 */
export async function startServices(opts: StartOptions = {}): Promise<Services> {
  const config = opts.config ?? loadConfig();
  // The secrets live on in config; children and anything reading process.env later never see them.
  if (!opts.config) scrubSecretEnv();
  // Before anything touches the data dir: a second process would corrupt PGlite and its boot
  // recovery would delete this one's live temp files.
  const releaseLocks = lockDirs(config);
  try {
    return await bootServices(config, opts, releaseLocks);
  } catch (e) {
    releaseLocks();
    throw e;
  }
}

async function bootServices(config: Config, opts: StartOptions, releaseLocks: () => void): Promise<Services> {
  const authSecret = config.NEXTAUTH_SECRET ?? persistentSecret(config.dataDir, 'auth-secret');
  const secrets = secretBox(parseKey(config.SKILLDOCK_SECRET_KEY ?? persistentSecret(config.dataDir, 'secret-key', 32)));
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: config.pgliteDir });
  try {
    await migrateDatabase(database);
  } catch (e) {
    await database.close().catch(() => undefined);
    throw e;
  }
  await bootstrapOwner(database, config);
  const installation = await installationId(database.db);
  const replica = new Replica(database.db);
  await replica.start();
  // Setup needs a secret only this machine's operator can read; it goes once an owner exists.
  if ((await userCount(database.db)) === 0) ensureSetupToken(config.dataDir);
  else removeSetupToken(config.dataDir);
  const users = new UserCache(database);
  await users.start();
  const tokens = new TokenCache(database);
  await tokens.start();
  // Before anything that writes jobs, so none of their notices is missed.
  const jobList = new JobListCache(database);
  await jobList.start();
  // GitHub installs interrupted by a crash are made consistent before any job or route touches them.
  await recoverGithubInstalls(database.db, config.runtimeDir)
    .then((actions) => actions.forEach((a) => logger.warn('github recovery', { path: a.path, action: a.action })))
    .catch((e) => logger.error('github recovery failed; use Repair on the GitHub tab', { error: String(e) }));
  await recoverStore(managedStore(config.dataDir)).catch((e) => logger.error('skill store recovery failed', { error: String(e) }));
  await sweepStaging(managedStore(config.dataDir).stagingDir)
    .then((removed) => removed.length && logger.warn('removed skill import leftovers', { paths: removed }))
    .catch((e) => logger.error('skill staging sweep failed', { error: String(e) }));
  // Sandbox installs of a skill follow its store: updatable when a new version is active, and a removal refused while any exists.
  const skillStore = new SharedSkillStore({
    database,
    dataDir: config.dataDir,
    uses: { activated: (slug, hash) => markUpdatable(database.db, slug, hash), assertRemovable: (slug) => assertNoInstalls(database.db, slug) },
  });
  await skillStore.boot().catch((e) => logger.error('the skill store could not be brought from the database', { error: String(e) }));
  registerSharedStore(skillStore);
  const hub = new JobEventHub(database);
  await hub.start();
  const version = appVersion();
  configureScanPool({ size: config.SKILLDOCK_SCAN_WORKERS, budgetMs: config.SKILLDOCK_SCAN_BUDGET_MS });
  const skills = new SkillCatalog({ db: database.db, dataDir: config.dataDir, runtimeDir: config.runtimeDir, beforeBuild: () => skillStore.fresh() });
  const changes = new ChangeFeed(database);
  changes.on('skills', () => {
    skills.invalidate();
    void skillStore.fresh().catch((e) => logger.warn('the skill store could not be brought from the database', { error: String(e) }));
  });
  const agentProbes = new AgentProbeCache();
  changes.on('agents', (id) => agentProbes.heard(id));
  const stopProbeHold = onLocalPublish((topic, id) => topic === 'agents' && agentProbes.published(id));
  await changes.start();
  const packages = new PackageRuntime(config.runtimeDir);
  const jobKinds = new JobRegistry();
  registerBuiltinJobs(jobKinds, { engineStatus: () => dockerStatus(5000) });
  registerPackageJobs(jobKinds, { runtime: packages, secrets, hub, version });
  registerSkillJobs(jobKinds, { dataDir: config.dataDir, catalog: skills, shared: skillStore });
  registerSkillUpdateJobs(jobKinds, { dataDir: config.dataDir, catalog: skills, shared: skillStore });
  const hostRequests = new HostRequests(database);
  // One replica per engine holds the enforcement (a lease); the others forward to it through the database.
  const network = {
    ...(await startNetworkEnforcement(config, { database, requests: hostRequests, replicaId: replica.id, installationId: installation })),
    requests: hostRequests,
  };
  const dockerClients = new DockerClients();
  const stopNetworkWatch = network.enforcer && !network.owner ? startNetworkReconciler(database.db, network.enforcer, dockerClients) : () => undefined;
  if (!network.enforcer) logger.info('sandbox network rules are not enforced on this host', { reason: network.problem });
  const approvals = new ApprovalDecisions();
  const sandboxes: InstanceDeps = {
    db: database.db,
    secrets,
    workspaceRoots: () => config.workspaceRoots,
    backendCache: new Map(),
    dockerClients,
    network,
    prepareStart: bundleStarter({ db: database.db, dataDir: config.dataDir, secrets }),
    installationId: installation,
    activity: new SandboxActivity(new SandboxLeaseStore(database.db, replica.id)),
    lock: (key, fn) => database.withLock(key, fn),
    locks: new InstanceLocks(),
  };
  registerSandboxJobs(jobKinds, { ...sandboxes, extraProbes: networkCheckProbes(network) });
  registerInstallJobs(jobKinds, { ...sandboxes, dataDir: config.dataDir, hub });
  const agents = new AgentsMemo(database.db);
  const imageProbes = new ImageProbeCache();
  // Built per call as the agents operations build it: the policy and gateways services ask agents too.
  const agentsDepsNow = () => agentsDeps({ database, config, skills, sandboxes, imageProbes, agents, agentProbes });
  const execRoutes = new ExecRoutes();
  const policy = new PolicyService({
    db: database.db,
    decisions: approvals,
    instances: sandboxes,
    routes: execRoutes,
    agentSkills: async (id) => agentSkillRefs(await effectiveOf(agentsDepsNow(), id)),
  });
  let device: { privateKeyPem: string } | null = null;
  const deviceKey = () => (device ??= gatewayDeviceKey(config.dataDir));
  const gateways = new GatewaysService({
    db: database.db,
    box: secrets,
    snapshot: () => skills.snapshot(),
    roots: config.gatewayRoots,
    home: os.homedir(),
    remote: (url, token) => new RemoteOpenClawAccess(url, token, { device: deviceKey() }),
    docker: dockerGatewayAccess(database.db, config.DOCKER_HOST, dockerClients),
    queueSync: (actor, gatewayId, reason) => queueSync(database, actor, gatewayId, reason),
    agentVersion: async (id) => (await effectiveOf(agentsDepsNow(), id)).version,
  });
  registerGatewayJobs(jobKinds, gateways);
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
  const workerTasks = worker ? await startWorkerTasks({ config, database, hub, sandboxes, gateways, approvals }) : null;
  const gatewayWatcher = workerTasks?.gatewayWatcher ?? null;
  const terminals = new TerminalService({
    sandboxes,
    user: (id) => users.get(id),
    transcript: transcriptRecorder(config.dataDir),
    cluster: { registry: new SessionRegistry(database, replica.id), authSecret, verifier: new RelayVerifier(authSecret) },
  });
  await terminals.start();
  // Not tied to the worker: every process that serves terminals records into its own data dir.
  const stopTranscriptSweep = startTranscriptSweeper({
    db: database.db,
    dir: transcriptsDir(config.dataDir),
    isOpen: (id) => terminals.manager.list().some((s) => s.id === id),
  });
  const stopScheduler = () => {
    workerTasks?.stop();
    stopNetworkWatch();
    stopTranscriptSweep();
  };
  const sandboxUsage = new SandboxUsage();
  sandboxUsage.addInstanceLister(instanceLister(sandboxes));
  sandboxUsage.addAgentLister((configId) => agentsOfConfig(database.db, configId));
  const sandboxConfigs = new SandboxConfigService({
    database,
    secrets,
    usage: sandboxUsage,
    validate: { tlsRoots: config.dockerTlsRoots, workspaceRoots: config.workspaceRoots },
    instances: sandboxes,
  });
  const services: Services = {
    config,
    access: new AccessService({ db: database.db, dataDir: config.dataDir, users }),
    sandboxUsage,
    sandboxConfigs,
    sandboxes,
    network,
    terminals,
    database,
    hub,
    worker,
    jobKinds,
    packages,
    authSecret,
    users,
    tokens,
    jobList,
    rateLimiter: new RateLimiter(),
    secrets,
    startedAt: new Date(),
    version,
    replica,
    installationId: installation,
    changes,
    agentProbes,
    agents,
    execRoutes,
    approvals,
    policy,
    imageProbes,
    stopProbeHold,
    stopScheduler,
    skills,
    skillStore,
    gateways,
    gatewayWatcher,
    stopSkillEvents,
    releaseLocks,
  };
  return services;
}

export async function stopServices(s: Services): Promise<void> {
  s.stopScheduler();
  s.stopSkillEvents();
  s.stopProbeHold();
  await s.changes.stop();
  // Before the engine clients and the database go: each shell's processes end and its end is audited.
  await s.terminals.closeAll();
  await s.skills.close();
  unregisterSharedStore(s.skillStore);
  await s.skillStore.close();
  await closeScanPool();
  await s.worker?.stop(s.config.SKILLDOCK_SHUTDOWN_GRACE_MS);
  // The rules stay in place (sandboxes stay confined); only this process's listeners stop, and the lease goes to a standby.
  if (s.network.owner) await s.network.owner.stop();
  else await s.network.enforcer?.close();
  await s.hub.stop();
  await s.users.stop();
  await s.tokens.stop();
  await s.jobList.stop();
  await s.network.requests?.stop();
  await s.sandboxes.activity?.store?.close();
  await s.replica.stop();
  await s.database.close();
  s.releaseLocks();
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
