// The shape of a process's services (built by startServices in lib/services.ts): every domain's
// live objects, the caches they share and what stops them.
import type { Database } from '@/db/client';
import type { AgentsMemo } from './agents/memo';
import type { AgentProbeCache } from './agents/probe-cache';
import type { AccessService } from './auth/service';
import type { TokenCache } from './auth/token-cache';
import type { UserCache } from './auth/user-cache';
import type { HostRequests } from './cluster/host-requests';
import type { ChangeFeed } from './cluster/invalidation';
import type { Replica } from './cluster/replica';
import type { Config } from './core/config';
import type { RateLimiter } from './core/rate-limit';
import type { GatewaysService } from './gateways/service';
import type { GatewayWatcher } from './gateways/watcher';
import type { JobEventHub } from './jobs/hub';
import type { JobListCache } from './jobs/list-cache';
import type { JobRegistry } from './jobs/registry';
import type { JobWorker } from './jobs/worker';
import type { PackageRuntime } from './packages/context';
import type { ApprovalDecisions } from './policy/approvals/approvals';
import type { ExecRoutes } from './policy/exec/run';
import type { PolicyService } from './policy/service';
import type { SandboxUsage } from './sandbox/config/in-use';
import type { SandboxConfigService } from './sandbox/config/service';
import type { ImageProbeCache } from './sandbox/images/image-probe';
import type { InstanceDeps } from './sandbox/instances/service';
import type { NetworkEnforcement } from './sandbox/network/enforcement';
import type { SecretBox } from './secrets/crypto';
import type { SkillCatalog } from './skills/service/catalog';
import type { SharedSkillStore } from './skills/shared/shared-store';
import type { TerminalService } from './terminal/service';

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
  /** The session user check of every request, in memory, dropped on change on any replica. */
  users: UserCache;
  /** First-run setup, users, API tokens and the audit log, telling `users` of the changes it makes. */
  access: AccessService;
  /** API tokens resolved in the last moments, dropped on revocation or a user change on any replica. */
  tokens: TokenCache;
  /** Pages of the job list as JSON text, dropped by every job notice of any replica. */
  jobList: JobListCache;
  /** Counters of the operations' per-caller rate limits (see RouteContract.rateLimit). */
  rateLimiter: RateLimiter;
  /** Seals stored secrets (AES-256-GCM) with SKILLDOCK_SECRET_KEY or a key generated once into the data dir. */
  secrets: SecretBox;
  startedAt: Date;
  version: string;
  /** This process among the replicas sharing the database (id, heartbeat, internal address). */
  replica: Replica;
  /** One per database: labels everything this installation creates on a shared Docker engine. */
  installationId: string;
  /** Changes announced by any replica (publishChange): each cache of this process drops what they concern. */
  changes: ChangeFeed;
  /** Host agents' probes for the gateway's poll, dropped by the `agents` changes of any replica. */
  agentProbes: AgentProbeCache;
  /** What the agents service keeps between calls: effective answers, targets, probes, policy checks, the version watcher. */
  agents: AgentsMemo;
  stopProbeHold: () => void;
  /** Stops the scheduled update checker (runs with the worker). */
  stopScheduler: () => void;
  /** The live skill catalog of this process (discovery, scanner verdicts, gating, search). */
  skills: SkillCatalog;
  /** The managed skill store every replica shares (rows and blobs in the database; the data dir holds this replica's copy). */
  skillStore: SharedSkillStore;
  /** What uses each sandbox config: the backends and the agents domain register their listers here. */
  sandboxUsage: SandboxUsage;
  /** Sandbox configs (their checks, connection tests and deletion's network release), their env and users' own variables. */
  sandboxConfigs: SandboxConfigService;
  /** How running sandboxes are reached: configs become backends here (clients reused per config version). */
  sandboxes: InstanceDeps;
  /** Skilldock's own egress enforcement for the local Docker engine (null enforcer: why in `problem`). */
  network: NetworkEnforcement & { requests?: HostRequests };
  /** Where agents' execs go: the sandbox each agent used last, starts in flight, commands running. */
  execRoutes: ExecRoutes;
  /** Wakes this service's execs waiting on an approval when it is decided (other replicas' decisions: by polling). */
  approvals: ApprovalDecisions;
  /** Risk profiles, the tester, approvals, the exec log and agents' execs, bound to this process's services. */
  policy: PolicyService;
  /** What each sandbox image offers skills (programs, OS), probed once per image id. */
  imageProbes: ImageProbeCache;
  /** Browser terminals into running sandboxes: tickets, open sessions, the access re-check. */
  terminals: TerminalService;
  /** Agent gateways (OpenClaw, folder clients): access, tests, drift, the sync target. */
  gateways: GatewaysService;
  /** Queues a sync when a gateway's desired state moved (runs with the worker). */
  gatewayWatcher: GatewayWatcher | null;
  stopSkillEvents: () => void;
  /** Gives up this process's exclusive hold on the data dir (and the runtime dir), last in stopServices. */
  releaseLocks: () => void;
}
