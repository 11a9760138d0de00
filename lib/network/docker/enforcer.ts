// Skilldock's own egress enforcement on a local Docker engine. Each sandbox config gets a bridge
// network; this process owns one nft table (without nft, its iptables + ipset twin) holding the rules
// of every such network, replaced at once on every change, and runs an egress proxy and a DNS
// forwarder on each network's gateway. Rules key on the bridge, so a change reaches running sandboxes without a restart.
import { Resolver } from 'node:dns/promises';
import net from 'node:net';
import type Docker from 'dockerode';
import { AppError } from '../../core/errors';
import { describeError, logger } from '../../core/logger';
import { DnsForwarder, MAX_IN_FLIGHT_PER_CLIENT } from '../dns/forwarder';
import { compilePolicy, hasDomainRules } from '../policy/compile';
import type { CompiledPolicy, Decision, NetworkPolicy } from '../policy/types';
import { EgressProxy, type EgressStats } from '../proxy/egress-proxy';
import { flushSubnet } from './conntrack';
import { chooseFirewall, type Firewall } from './firewall';
import { HostGuard } from './host-guard';
import { policyJudges } from './judges';
import { type BridgeNetwork, ensureBridgeNetwork, listBridgeNetworks, networkKey, networkName, removeBridgeNetwork } from './networks';

export interface EnforcerOptions {
  /** The nft table this process owns (also the owner label of its networks). */
  table: string;
  /** This installation's id, on the networks it creates; networks of another installation are never touched. */
  installationId?: string;
  proxyPort: number;
  dnsPort: number;
  /** DNS servers the forwarder and the proxy ask ("ip" or "ip:port"). */
  upstreams: string[];
  /** Every decision of a proxy (for counters and tests). */
  onDecision?: (e: { configId: string; host: string; port: number; decision: Decision }) => void;
  /** Caps and timeouts of each network's proxy and forwarder (defaults in their modules). */
  limits?: { proxyPerClient?: number; tunnelIdleMs?: number; dnsPerClient?: number };
  /** The host's own addresses, for the proxy's guard; read from the kernel by default. */
  hostAddresses?: () => Promise<string[]>;
  /** The installation id the nft table is marked with, so another installation refuses it. */
  owner?: string;
}

interface Entry {
  docker: Docker;
  net: BridgeNetwork;
  policy: CompiledPolicy;
  /** When `policy` was last put in force (ms since the epoch). */
  since: number;
  proxy: EgressProxy;
  dns: DnsForwarder;
}

export interface Attachment {
  network: string;
  dns: string[];
}

const NO_FIREWALL = 'Neither nft (the nftables package) nor iptables with ipset is installed on this host.';

/** Why this host cannot enforce rules itself, or null when it can. */
export async function enforcementProblem(): Promise<string | null> {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return 'Skilldock does not run as root, so it cannot install firewall rules.';
  if (!(await chooseFirewall())) return NO_FIREWALL;
  return null;
}

export class NetworkEnforcer {
  private readonly entries = new Map<string, Entry>();
  private chain: Promise<unknown> = Promise.resolve();
  private readonly resolver: Resolver;
  private firewall: Promise<Firewall | null> | undefined;
  /** One guard for every proxy: the host and its networks are the same for all of them. */
  readonly guard: HostGuard;
  private readonly limitLogged = new Map<string, number>();

  constructor(readonly opts: EnforcerOptions) {
    this.resolver = new Resolver({ timeout: 3000, tries: 2 });
    if (opts.upstreams.length) this.resolver.setServers(opts.upstreams);
    this.guard = new HostGuard({ networkSubnets: () => this.networkSubnets(), ...(opts.hostAddresses ? { hostAddresses: opts.hostAddresses } : {}) });
  }

  /** The subnets of every network on the engines this enforcer serves (its own included). */
  private async networkSubnets(): Promise<string[]> {
    const engines = new Set([...this.entries.values()].map((e) => e.docker));
    const out = new Set([...this.entries.values()].map((e) => e.net.subnet4));
    for (const docker of engines) {
      for (const n of await docker.listNetworks()) for (const c of n.IPAM?.Config ?? []) if (c.Subnet) out.add(c.Subnet);
    }
    return [...out];
  }

  /** A refusal for a capped client is logged once a minute per network and address. */
  private logLimit(configId: string, kind: string, client: string, limit: number): void {
    const key = `${configId}|${kind}|${client}`;
    const now = Date.now();
    if (now - (this.limitLogged.get(key) ?? 0) < 60_000) return;
    if (this.limitLogged.size > 4096) this.limitLogged.clear();
    this.limitLogged.set(key, now);
    logger.warn(`sandbox ${kind} limit reached`, { config: configId, client, limit });
  }

  /** Whether the config's policy has domain rules (its web traffic goes through the proxy). */
  hasDomainRules(configId: string): boolean {
    const p = this.entries.get(configId)?.policy;
    return p ? hasDomainRules(p) : false;
  }

  /** One change at a time: the table is rendered from the whole map, so changes must not interleave. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Addresses of a name from the upstreams, both families; an IP literal is itself. */
  async resolve(host: string): Promise<string[]> {
    if (net.isIP(host)) return [host];
    const [a, aaaa] = await Promise.all([this.resolver.resolve4(host).catch(() => []), this.resolver.resolve6(host).catch(() => [])]);
    return [...a, ...aaaa];
  }

  private judges(configId: string) {
    return policyJudges(
      () => this.entries.get(configId)?.policy,
      (host, port, decision) => this.opts.onDecision?.({ configId, host, port, decision }),
    );
  }

  /** nft or iptables, chosen on first use; a host with neither is asked again next time. */
  private async packetFilter(): Promise<Firewall> {
    this.firewall ??= chooseFirewall();
    const fw = await this.firewall;
    if (fw) return fw;
    this.firewall = undefined;
    throw new AppError('unavailable', NO_FIREWALL);
  }

  private async render(): Promise<void> {
    const nets = [...this.entries.values()].map((e) => ({
      key: e.net.key,
      bridge: e.net.bridge,
      gateway4: e.net.gateway4,
      subnet4: e.net.subnet4,
      policy: e.policy,
      proxyPort: this.opts.proxyPort,
      dnsPort: this.opts.dnsPort,
    }));
    try {
      await (await this.packetFilter()).apply(this.opts.table, nets, this.opts.owner);
    } catch (e) {
      throw new AppError('network_apply_failed', `The firewall rules could not be applied: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  }

  private async start(docker: Docker, net: BridgeNetwork, policy: NetworkPolicy): Promise<Entry> {
    const judges = this.judges(net.configId);
    const limits = this.opts.limits ?? {};
    const id = net.configId;
    const proxy = new EgressProxy({
      judge: judges.egress,
      resolve: (h) => this.resolve(h),
      guard: (addresses) => this.guard.check(addresses),
      ...(limits.proxyPerClient !== undefined ? { maxPerClient: limits.proxyPerClient } : {}),
      ...(limits.tunnelIdleMs !== undefined ? { idleTimeoutMs: limits.tunnelIdleMs } : {}),
      onLimit: (e) => this.logLimit(id, 'egress proxy connection', e.client, e.limit),
      onTunnelEnded: (e) =>
        logger.info('egress tunnel ended by a policy change', { config: id, client: e.client, host: e.host, port: e.port, rule: e.decision.rule }),
    });
    const dns = new DnsForwarder({
      judge: judges.dns,
      upstreams: this.opts.upstreams,
      ...(limits.dnsPerClient !== undefined ? { maxInFlightPerClient: limits.dnsPerClient } : {}),
      onQuery: (e) => {
        if (e.outcome === 'refused') this.logLimit(id, 'DNS queries in flight', e.client, limits.dnsPerClient ?? MAX_IN_FLIGHT_PER_CLIENT);
      },
    });
    const entry: Entry = { docker, net, policy: compilePolicy(policy), since: Date.now(), proxy, dns };
    this.entries.set(net.configId, entry);
    try {
      await proxy.listen(net.gateway4, this.opts.proxyPort);
      await dns.listen(net.gateway4, this.opts.dnsPort);
    } catch (e) {
      this.entries.delete(net.configId);
      await Promise.allSettled([proxy.close(), dns.close()]);
      throw new AppError('network_apply_failed', `The egress proxy or DNS forwarder could not listen on ${net.gateway4}: ${(e as Error).message}`, {
        cause: e,
      });
    }
    return entry;
  }

  /** The config's network with its rules in place, created on first use; what a sandbox joins. */
  attach(docker: Docker, configId: string, policy: NetworkPolicy): Promise<Attachment> {
    return this.serial(async () => {
      let entry = this.entries.get(configId);
      if (!entry) {
        const net = await ensureBridgeNetwork(docker, this.opts.table, configId, this.opts.installationId);
        this.guard.invalidate();
        entry = await this.start(docker, net, policy);
        try {
          await this.render();
        } catch (e) {
          this.entries.delete(configId);
          await Promise.allSettled([entry.proxy.close(), entry.dns.close()]);
          throw e;
        }
      }
      return { network: entry.net.name, dns: [entry.net.gateway4] };
    });
  }

  /** Re-applies a changed policy: sets swapped in one transaction, open flows of the subnet cut. */
  update(configId: string, policy: NetworkPolicy): Promise<boolean> {
    return this.serial(async () => {
      const entry = this.entries.get(configId);
      return entry ? this.put(configId, entry, compilePolicy(policy)) : false;
    });
  }

  /**
   * A stored policy put in force unless it already is, or unless the one in force changed within
   * `settledMs`: a save applies its rules before it commits, so a stored policy read in that window is
   * the one being replaced and must not win. Decided in the serial chain, after any update queued first.
   */
  refresh(configId: string, stored: NetworkPolicy, settledMs: number): Promise<boolean> {
    return this.serial(async () => {
      const entry = this.entries.get(configId);
      if (!entry || Date.now() - entry.since < settledMs) return false;
      const compiled = compilePolicy(stored);
      if (JSON.stringify(compiled) === JSON.stringify(entry.policy)) return false;
      return this.put(configId, entry, compiled);
    });
  }

  private async put(configId: string, entry: Entry, compiled: CompiledPolicy): Promise<boolean> {
    const before = { policy: entry.policy, since: entry.since };
    entry.policy = compiled;
    entry.since = Date.now();
    try {
      await this.render();
    } catch (e) {
      Object.assign(entry, before);
      throw e;
    }
    // Established flows skip the rules; cut them so a tightened policy holds for what is already open.
    await flushSubnet(entry.net.subnet4).catch((e) => logger.warn('conntrack flush failed', { err: describeError(e), subnet: entry.net.subnet4 }));
    // The proxy's tunnels are flows of the host, not of the subnet: it judges and ends them itself.
    const ended = await entry.proxy.recheck();
    if (ended) logger.info('egress tunnels ended by a policy change', { config: configId, ended });
    return true;
  }

  /** The config's network and rules go away (its sandboxes are removed first by the caller). */
  detach(docker: Docker, configId: string): Promise<void> {
    return this.serial(async () => {
      const entry = this.entries.get(configId);
      if (entry) {
        this.entries.delete(configId);
        await Promise.allSettled([entry.proxy.close(), entry.dns.close()]);
        await this.render();
      }
      await removeBridgeNetwork(docker, entry?.net.name ?? networkName(networkKey(this.opts.table, configId)));
    });
  }

  /** At boot: the networks this owner left behind get their rules and listeners back. */
  reconcile(docker: Docker, policyOf: (configId: string) => Promise<NetworkPolicy | null>): Promise<number> {
    return this.serial(async () => {
      // Also called on the engine's network events: a network came or went, so the guard lists again.
      this.guard.invalidate();
      let n = 0;
      for (const net of await listBridgeNetworks(docker, this.opts.table)) {
        if (this.entries.has(net.configId)) continue;
        // Another installation's network on a shared engine and table name: not this one's to serve or remove.
        if (net.installationId && net.installationId !== this.opts.installationId) continue;
        const policy = await policyOf(net.configId);
        if (!policy) {
          // Made before networks carried the installation: it may be another installation's, so it stays.
          if (!net.installationId) continue;
          await removeBridgeNetwork(docker, net.name).catch((e) =>
            logger.warn('could not remove an orphaned sandbox network', { err: describeError(e), network: net.name }),
          );
          continue;
        }
        await this.start(docker, net, policy);
        n++;
      }
      await this.render();
      return n;
    });
  }

  /** The table rendered again from what this enforcer holds now, in one transaction (a new lease holder). */
  rerender(): Promise<void> {
    return this.serial(() => this.render());
  }

  /** A network removed behind Skilldock's back (Docker event): its rules and listeners go too. */
  forget(networkName: string): Promise<void> {
    return this.serial(async () => {
      for (const [id, e] of this.entries) {
        if (e.net.name !== networkName) continue;
        this.entries.delete(id);
        await Promise.allSettled([e.proxy.close(), e.dns.close()]);
        await this.render();
      }
    });
  }

  /** The proxy's counters and open tunnels of a config's network (diagnostics and tests). */
  proxyState(configId: string): { stats: EgressStats; tunnels: ReturnType<EgressProxy['openTunnels']> } | null {
    const e = this.entries.get(configId);
    return e ? { stats: e.proxy.stats(), tunnels: e.proxy.openTunnels() } : null;
  }

  networks(): BridgeNetwork[] {
    return [...this.entries.values()].map((e) => e.net);
  }

  /**
   * Stops the listeners. Rules otherwise stay, so sandboxes stay confined while the console is down;
   * `removeRules` deletes the table and `removeNetworks` the networks too (tests, uninstall).
   */
  close(opts: { removeRules?: boolean; removeNetworks?: boolean } = {}): Promise<void> {
    return this.serial(async () => {
      const entries = [...this.entries.values()];
      this.entries.clear();
      await Promise.allSettled(entries.flatMap((e) => [e.proxy.close(), e.dns.close()]));
      if (opts.removeRules) await (await this.packetFilter()).remove(this.opts.table);
      if (opts.removeNetworks) await Promise.allSettled(entries.map((e) => removeBridgeNetwork(e.docker, e.net.name)));
    });
  }
}
