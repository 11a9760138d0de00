import type { Database } from '@/db/client';
import type { HostRequests } from '../../cluster/host-requests';
import type { Config } from '../../core/config';
import { systemUpstreams } from '../../network/dns/forwarder';
import { enforcementProblem, NetworkEnforcer } from '../../network/docker/enforcer';
import type { EnforcedBy } from '../../network/policy/types';
import type { DockerConfig } from '../config/schema';
import type { ConfigRow } from '../config/view';
import { dockerConnection } from '../docker/connection';
import { localControl, type NetworkControl } from './control';
import { EnforcementOwner } from './owner';

export interface NetworkEnforcement {
  /** This process's kernel and listener side; it acts only while `owner` holds the lease (when there is one). */
  enforcer: NetworkEnforcer | null;
  /** What sandbox start, apply and the check probe call, whichever replica holds the enforcement. */
  control: NetworkControl | null;
  /** The lease of the engine's enforcement among the replicas; absent in a process started without one. */
  owner?: EnforcementOwner;
  problem: string | null;
}

/** What a replica needs to share enforcement with the others on one database. */
export interface EnforcementCluster {
  database: Database;
  requests: HostRequests;
  replicaId: string;
  installationId: string;
  leaseTtlMs?: number;
  requestTimeoutMs?: number;
}

export interface EnforcementView {
  enforcedBy: EnforcedBy;
  enforcement: string;
  liveUpdate: boolean;
}

/** The enforcement a config gets, in the words the console shows. */
export function enforcementOf(row: Pick<ConfigRow, 'backend' | 'config'>, env: NetworkEnforcement | undefined): EnforcementView {
  if (row.backend === 'e2b')
    return { enforcedBy: 'e2b', enforcement: 'E2B enforces the policy; a change is sent to running sandboxes at once.', liveUpdate: true };
  if (row.backend === 'cube')
    return {
      enforcedBy: 'cube',
      enforcement: 'CubeSandbox enforces CIDR rules when a sandbox is created; it cannot change a running one, so recycle sandboxes after a change.',
      liveUpdate: false,
    };
  const c = row.config as DockerConfig;
  if (c.networkMode === 'none') return { enforcedBy: 'none', enforcement: 'Network mode "none": sandboxes have no network at all.', liveUpdate: true };
  if (c.host && !c.host.startsWith('unix://'))
    return {
      enforcedBy: 'none',
      enforcement:
        'A remote engine: Skilldock cannot install firewall rules on its host, so only the open policy (or network mode "none") can start sandboxes.',
      liveUpdate: false,
    };
  if (!env?.control || env.owner?.problem)
    return {
      enforcedBy: 'none',
      enforcement: `Not enforced on this server: ${env?.owner?.problem ?? env?.problem ?? 'enforcement is off.'} Only the open policy (or network mode "none") can start sandboxes.`,
      liveUpdate: false,
    };
  return {
    enforcedBy: 'host-firewall+proxy',
    enforcement: `Skilldock's firewall on this host (nft table ${env.control.table}), its egress proxy for domain rules and its DNS forwarder; changes reach running sandboxes at once.`,
    liveUpdate: true,
  };
}

/** Which replica holds this host's enforcement, for the instance view (it changes as leases move). */
export function enforcementHolder(env: NetworkEnforcement | undefined): string | null {
  const owner = env?.owner;
  if (!owner) return null;
  if (owner.problem) return `Not enforced: ${owner.problem}`;
  if (!owner.engineId) return 'The local Docker engine has not answered yet, so no replica holds it.';
  const h = owner.holder;
  if (h.self) return `Held by this replica (${h.replica}) for engine ${owner.engineId}.`;
  if (h.replica) return `Held by replica ${h.replica} for engine ${owner.engineId}; this replica forwards its changes there.`;
  return `No replica holds it for engine ${owner.engineId} right now: one takes over within the lease lifetime.`;
}

/**
 * Builds the enforcer when this host can enforce; the reason otherwise. With `cluster`, the replicas
 * on one database share the local engine's enforcement through a lease (see EnforcementOwner).
 */
export async function startNetworkEnforcement(config: Config, cluster?: EnforcementCluster): Promise<NetworkEnforcement> {
  if (config.SKILLDOCK_NETWORK_ENFORCEMENT === 'off') return { enforcer: null, control: null, problem: 'SKILLDOCK_NETWORK_ENFORCEMENT is off.' };
  const problem = await enforcementProblem();
  if (problem) return { enforcer: null, control: null, problem };
  const enforcer = new NetworkEnforcer({
    table: config.SKILLDOCK_NFT_TABLE,
    installationId: cluster?.installationId,
    proxyPort: config.SKILLDOCK_EGRESS_PROXY_PORT,
    dnsPort: config.SKILLDOCK_SANDBOX_DNS_PORT,
    upstreams: config.dnsUpstreams ?? systemUpstreams(),
    ...(cluster ? { owner: cluster.installationId } : {}),
  });
  if (!cluster) return { enforcer, control: localControl(enforcer), problem: null };
  const owner = new EnforcementOwner({
    db: cluster.database.db,
    requests: cluster.requests,
    enforcer,
    engine: dockerConnection(config.DOCKER_HOST ? { host: config.DOCKER_HOST } : {}),
    replicaId: cluster.replicaId,
    installationId: cluster.installationId,
    ...(cluster.leaseTtlMs !== undefined ? { leaseTtlMs: cluster.leaseTtlMs } : {}),
    ...(cluster.requestTimeoutMs !== undefined ? { requestTimeoutMs: cluster.requestTimeoutMs } : {}),
  });
  await owner.start();
  if (owner.problem) return { enforcer: null, control: null, owner, problem: owner.problem };
  return { enforcer, control: owner, owner, problem: null };
}
