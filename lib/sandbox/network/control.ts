// What sandbox start, policy apply and the check probe ask of network enforcement, without knowing
// which replica holds it: the holder runs it on its enforcer, any other replica forwards it.
import type Docker from 'dockerode';
import type { Attachment, NetworkEnforcer } from '../../network/docker/enforcer';
import type { NetworkPolicy } from '../../network/policy/types';

export interface EnforcedNetwork {
  configId: string;
  name: string;
  gateway4: string;
  subnet4: string;
}

export interface NetworkControl {
  readonly table: string;
  readonly proxyPort: number;
  readonly dnsPort: number;
  /** The config's network with its rules in place (created on first use): what a sandbox joins. */
  attach(docker: Docker, configId: string, policy: NetworkPolicy): Promise<Attachment>;
  /** A changed policy in force for the config's network; false when it has no enforced network. */
  update(configId: string, policy: NetworkPolicy): Promise<boolean>;
  /** The config's network, rules and listeners go (after its sandboxes were removed). */
  detach(docker: Docker, configId: string): Promise<void>;
  /** The config's enforced network and whether its policy has domain rules; null when it has none. */
  describe(configId: string): Promise<{ network: EnforcedNetwork; domainRules: boolean } | null>;
}

/** The enforcer of this process, called directly (the holder, or a single replica). */
export function localControl(enforcer: NetworkEnforcer): NetworkControl {
  return {
    table: enforcer.opts.table,
    proxyPort: enforcer.opts.proxyPort,
    dnsPort: enforcer.opts.dnsPort,
    attach: (docker, configId, policy) => enforcer.attach(docker, configId, policy),
    update: (configId, policy) => enforcer.update(configId, policy),
    detach: async (docker, configId) => {
      if (enforcer.networks().some((n) => n.configId === configId)) await enforcer.detach(docker, configId);
    },
    describe: async (configId) => {
      const n = enforcer.networks().find((x) => x.configId === configId);
      if (!n) return null;
      return {
        network: { configId: n.configId, name: n.name, gateway4: n.gateway4, subnet4: n.subnet4 },
        domainRules: enforcer.hasDomainRules(configId),
      };
    },
  };
}
