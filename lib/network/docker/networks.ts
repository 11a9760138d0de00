// The Docker side of egress enforcement: one user-defined bridge network per sandbox config, with a
// deterministic bridge name the firewall rules match on, inter-container traffic off, and labels
// that say who owns it (so boot reconciliation and cleanup are exact).
import { createHash } from 'node:crypto';
import type Docker from 'dockerode';
import { LABEL_INSTALLATION } from '../../cluster/installation';
import { AppError } from '../../core/errors';

export const LABEL_NETWORK = 'io.skilldock.network';
export const LABEL_NETWORK_OWNER = 'io.skilldock.network-owner';
export const LABEL_NETWORK_CONFIG = 'io.skilldock.config-id';

export interface BridgeNetwork {
  configId: string;
  /** Short id shared by the network, its bridge and its firewall chains. */
  key: string;
  name: string;
  bridge: string;
  subnet4: string;
  gateway4: string;
  /** The installation that made it; null for a network made before networks carried one. */
  installationId: string | null;
}

/** The key of a config's network under one owner (the nft table name): 10 hex characters. */
export function networkKey(owner: string, configId: string): string {
  return createHash('sha256').update(`${owner}\0${configId}`).digest('hex').slice(0, 10);
}

export const networkName = (key: string) => `skilldock-net-${key}`;
export const bridgeName = (key: string) => `sdk${key}`;

function fromInspect(configId: string, key: string, info: Docker.NetworkInspectInfo): BridgeNetwork {
  const ipam = (info.IPAM?.Config ?? []).find((c) => c.Subnet && !c.Subnet.includes(':'));
  if (!ipam?.Subnet || !ipam.Gateway)
    throw new AppError('sandbox_error', `Docker network ${info.Name} has no IPv4 subnet and gateway; remove it and start the sandbox again.`);
  return {
    configId,
    key,
    name: info.Name,
    bridge: bridgeName(key),
    subnet4: ipam.Subnet,
    gateway4: ipam.Gateway.split('/')[0],
    installationId: info.Labels?.[LABEL_INSTALLATION] ?? null,
  };
}

async function inspect(docker: Docker, name: string): Promise<Docker.NetworkInspectInfo | null> {
  try {
    return (await docker.getNetwork(name).inspect()) as Docker.NetworkInspectInfo;
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode === 404) return null;
    throw e;
  }
}

/** The config's network, created when absent (a concurrent create by another caller is fine). */
export async function ensureBridgeNetwork(docker: Docker, owner: string, configId: string, installationId?: string): Promise<BridgeNetwork> {
  const key = networkKey(owner, configId);
  const name = networkName(key);
  const found = await inspect(docker, name);
  if (found) return fromInspect(configId, key, found);
  try {
    await docker.createNetwork({
      Name: name,
      Driver: 'bridge',
      CheckDuplicate: true,
      Internal: false,
      Options: { 'com.docker.network.bridge.name': bridgeName(key), 'com.docker.network.bridge.enable_icc': 'false' },
      Labels: {
        'io.skilldock.managed': 'true',
        [LABEL_NETWORK]: 'true',
        [LABEL_NETWORK_OWNER]: owner,
        [LABEL_NETWORK_CONFIG]: configId,
        ...(installationId ? { [LABEL_INSTALLATION]: installationId } : {}),
      },
    });
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode !== 409) throw e;
  }
  const created = await inspect(docker, name);
  if (!created) throw new AppError('sandbox_error', `Docker did not keep network ${name}; try again.`);
  return fromInspect(configId, key, created);
}

/** Every network this owner created, as the engine reports them now. */
export async function listBridgeNetworks(docker: Docker, owner: string): Promise<BridgeNetwork[]> {
  const nets = (await docker.listNetworks({ filters: { label: [`${LABEL_NETWORK_OWNER}=${owner}`] } })) as Docker.NetworkInspectInfo[];
  const out: BridgeNetwork[] = [];
  for (const n of nets) {
    const configId = n.Labels?.[LABEL_NETWORK_CONFIG];
    if (!configId) continue;
    const full = await inspect(docker, n.Name);
    if (full) out.push(fromInspect(configId, networkKey(owner, configId), full));
  }
  return out;
}

/** Removes the network; containers still attached are disconnected first. Absent is fine. */
export async function removeBridgeNetwork(docker: Docker, name: string): Promise<void> {
  const info = await inspect(docker, name);
  if (!info) return;
  for (const id of Object.keys(info.Containers ?? {})) {
    await docker
      .getNetwork(name)
      .disconnect({ Container: id, Force: true })
      .catch(() => undefined);
  }
  try {
    await docker.getNetwork(name).remove();
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode !== 404) throw e;
  }
}
