// Builds the backend a stored sandbox config describes: Docker through dockerode, E2B and
// CubeSandbox through the E2B-protocol client. The one place a config row becomes a live client.
import type { AppDb } from '@/db/client';
import { storedPolicy } from '../network/policy/open';
import { policySecrets } from '../network/store';
import type { SecretBox } from '../secrets/crypto';
import type { CreateSandboxSpec, SandboxBackend } from './backend';
import type { CubeConfig, DockerConfig, E2bConfig } from './config/schema';
import { type ConfigRow, openSecrets } from './config/view';
import type { SandboxActivity } from './docker/activity';
import { DockerBackend } from './docker/backend';
import type { DockerClients } from './docker/connection';
import { E2bBackend } from './e2b/backend';
import type { TransportDeps } from './e2b/transport';
import { activeImage } from './images/images';
import type { NetworkControl } from './network/control';

export interface BackendFactoryDeps {
  secrets: SecretBox;
  /** Host folders a Docker workspace mount may live under. */
  workspaceRoots: () => string[];
  /** Test seam for the E2B-protocol transport (a resolver mapping a sandbox domain to loopback). */
  e2bTransport?: TransportDeps;
  /** Skilldock's own egress enforcement on this host's Docker engine, and why it is off when it is. */
  network?: { control: NetworkControl | null; problem: string | null };
  /** This installation's id: on every Docker object made, and the scope of every sweep and cleanup. */
  installationId?: string;
  /** Sandbox leases and last use in the database, seen by every replica. */
  activity?: SandboxActivity;
  /** The service's Docker engine clients, reused by every backend it builds. */
  dockerClients?: DockerClients;
}

export type ConfigRecord = Pick<ConfigRow, 'id' | 'backend' | 'config' | 'secretsSealed'> & Partial<Pick<ConfigRow, 'networkPolicy' | 'networkSecretsSealed'>>;

export function backendForConfig(row: ConfigRecord, deps: BackendFactoryDeps): SandboxBackend {
  if (row.backend === 'docker') {
    const c = row.config as DockerConfig;
    return new DockerBackend({
      host: c.host || undefined,
      tlsCertPath: c.tlsCertPath || undefined,
      apiTimeoutMs: c.httpTimeoutSec * 1000,
      clients: deps.dockerClients,
      configId: row.id,
      installationId: deps.installationId,
      activity: deps.activity,
      runtime: c.runtime || undefined,
      readOnlyRootfs: c.readOnlyRootfs,
      network: c.networkMode,
      enforcer: deps.network?.control ?? undefined,
      enforcementProblem: deps.network?.problem ?? 'Network enforcement is not set up in this process.',
      workspaceMount: c.workspaceMount ? { hostPath: c.workspaceMount, allowedRoots: deps.workspaceRoots() } : undefined,
    });
  }
  const c = row.config as E2bConfig | CubeConfig;
  const secret = openSecrets(deps.secrets, row);
  return new E2bBackend(
    row.backend,
    {
      apiUrl: c.apiUrl,
      apiKey: secret.apiKey ?? '',
      domain: c.domain,
      proxyUrl: c.proxyUrl || undefined,
      template: c.templateId,
      caCert: c.caCert || undefined,
      skipTlsVerify: c.skipTlsVerify,
      requestTimeoutMs: c.httpTimeoutSec * 1000,
      sandboxTtlSeconds: c.sandboxTtlSeconds,
    },
    deps.e2bTransport,
  );
}

/**
 * What a sandbox of this config is created from: image or template, limits, lifetime, network policy.
 * `snapshotRef`: the config's active skill snapshot, which a Docker sandbox starts from instead of the base image.
 */
export function sandboxSpecFor(row: ConfigRecord, secrets?: SecretBox, opts: { snapshotRef?: string | null } = {}): CreateSandboxSpec {
  if (row.backend === 'docker') {
    const c = row.config as DockerConfig;
    return {
      image: opts.snapshotRef || c.image,
      limits: { cpu: c.cpuLimit, memoryMb: c.memoryLimitMb, pids: c.pidsLimit },
      idleTtlSeconds: c.idleTtlSeconds,
      network: c.networkMode,
      networkPolicy: storedPolicy(row),
    };
  }
  const c = row.config as E2bConfig | CubeConfig;
  const networkSecrets = secrets && row.networkSecretsSealed ? policySecrets(secrets, { id: row.id, networkSecretsSealed: row.networkSecretsSealed }) : {};
  return { image: c.templateId, idleTtlSeconds: c.sandboxTtlSeconds, networkPolicy: storedPolicy(row), networkSecrets };
}

/** The spec new sandboxes of the config start with: from its active skill snapshot when it has one. */
export async function currentSandboxSpec(db: AppDb, row: ConfigRecord, secrets?: SecretBox): Promise<CreateSandboxSpec> {
  const snapshot = row.backend === 'docker' ? await activeImage(db, row.id) : null;
  return sandboxSpecFor(row, secrets, { snapshotRef: snapshot?.plannedRef ?? null });
}
