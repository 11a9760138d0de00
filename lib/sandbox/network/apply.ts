// A saved policy reaches the running sandboxes of its config: Docker through Skilldock's firewall
// (one swap for the whole network), E2B through its live network route; Cube sandboxes are listed
// as needing a recycle, since Cube applies rules only when a sandbox is created.

import { AppError, isAppError } from '../../core/errors';
import { describeError, logger } from '../../core/logger';
import { storedPolicy } from '../../network/policy/open';
import { policySecrets } from '../../network/store';
import { CONFIG_LABEL } from '../config/in-use';
import type { ConfigRow } from '../config/view';
import type { DockerBackend } from '../docker/backend';
import { backendFor, type InstanceDeps, instanceId } from '../instances/service';

export interface SandboxReached {
  sandboxId: string;
  status: 'updated' | 'needs-recycle' | 'failed';
  message: string;
}

// process-wide: a constant table, never written
const LIVE = new Set(['running', 'creating', 'paused']);

/**
 * Docker's rules are per network: one swap of the host firewall reaches every sandbox on it, listed
 * or not. Whether the config's network took the rules (false: no enforced network for it); a
 * refusal is a network_apply_failed error, so a save can stop before it writes anything.
 */
export async function updateFirewall(deps: InstanceDeps, row: ConfigRow): Promise<boolean> {
  const control = row.backend === 'docker' ? deps.network?.control : null;
  if (!control) return false;
  try {
    return await control.update(row.id, storedPolicy(row));
  } catch (e) {
    if (isAppError(e)) throw e;
    throw new AppError('network_apply_failed', `The host firewall refused these rules, so they were not saved: ${describeError(e)}`, { cause: e });
  }
}

/** The saved policy reaches the running sandboxes; `firewallUpdated` is updateFirewall's answer for Docker. */
export async function applyToRunning(deps: InstanceDeps, row: ConfigRow, firewallUpdated: boolean): Promise<SandboxReached[]> {
  const backend = backendFor(deps, row);
  const policy = storedPolicy(row);
  const updated = row.backend === 'docker' && firewallUpdated;
  let listed: Awaited<ReturnType<typeof backend.list>>;
  try {
    listed = await backend.list({ [CONFIG_LABEL]: row.id });
  } catch (e) {
    // The policy is saved either way; say that its sandboxes could not be listed, and why.
    const why = e instanceof Error ? e.message : String(e);
    return [{ sandboxId: '', status: 'failed', message: `Saved, but the running sandboxes could not be listed: ${why}` }];
  }
  const running = listed.filter((s) => LIVE.has(s.state));
  if (row.backend === 'docker') {
    return running.map((s) => ({
      sandboxId: instanceId(row.id, s.id),
      status: updated ? 'updated' : 'needs-recycle',
      message: updated
        ? 'The new rules are in place for this sandbox.'
        : 'This sandbox is not on an enforced network (it started before enforcement or enforcement is off): recycle it.',
    }));
  }
  const secrets = policySecrets(deps.secrets, row);
  const out: SandboxReached[] = [];
  for (const s of running) {
    const id = instanceId(row.id, s.id);
    try {
      const r = backend.applyNetworkPolicy ? await backend.applyNetworkPolicy(s.id, policy, undefined, secrets) : 'unsupported';
      out.push(
        r === 'updated'
          ? { sandboxId: id, status: 'updated', message: 'Sent to the sandbox.' }
          : { sandboxId: id, status: 'needs-recycle', message: 'This backend cannot change a running sandbox: recycle it to apply the policy.' },
      );
    } catch (e) {
      out.push({ sandboxId: id, status: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}

/** After a Docker config is deleted: its network, rules, proxy and DNS forwarder go too. */
export async function releaseNetwork(deps: InstanceDeps, row: ConfigRow): Promise<void> {
  const control = deps.network?.control;
  if (row.backend !== 'docker' || !control) return;
  // Duck-typed, not instanceof: a production build may hold two copies of the class.
  const backend = backendFor(deps, row) as unknown as Partial<Pick<DockerBackend, 'localEngine' | 'conn'>>;
  if (!backend.localEngine || !backend.conn) return;
  // The config is gone already; a network left behind is removed by the next reconcile.
  await control
    .detach(backend.conn.api, row.id)
    .catch((e) => logger.warn('could not remove the network of a deleted sandbox config', { config: row.id, err: describeError(e) }));
}
