// What uses a sandbox config: its running or paused instances (found by the config label each
// backend puts on what it creates) and the agents bound to it. Backends plug their listers in.

/** The label (Docker) or metadata key (E2B/Cube) naming the config a sandbox came from. */
export const CONFIG_LABEL = 'skilldock.config';

export interface InUseInstance {
  id: string;
  state: string;
  createdAt: string | null;
}
export interface InUseAgent {
  id: string;
  name: string;
}
export interface ConfigUsage {
  instances: InUseInstance[];
  agents: InUseAgent[];
  /** False when a lister failed: the inventory is unknown, so identity changes and deletes are refused. */
  verified: boolean;
}

/** Lists sandboxes carrying the given labels, across the backend(s) of one config. */
export type InstanceLister = (configId: string, labels: Record<string, string>) => Promise<InUseInstance[]>;
export type AgentLister = (configId: string) => Promise<InUseAgent[]>;

/** The registry the backends and the agents domain register into; services.ts holds one. */
export class SandboxUsage {
  private instanceListers: InstanceLister[] = [];
  private agentListers: AgentLister[] = [];

  addInstanceLister(fn: InstanceLister): () => void {
    this.instanceListers.push(fn);
    return () => {
      this.instanceListers = this.instanceListers.filter((f) => f !== fn);
    };
  }

  addAgentLister(fn: AgentLister): () => void {
    this.agentListers.push(fn);
    return () => {
      this.agentListers = this.agentListers.filter((f) => f !== fn);
    };
  }

  /**
   * Running and paused instances and bound agents; a lister that fails, or does not answer within
   * `timeoutMs`, leaves `verified` false.
   */
  async configInUse(configId: string, timeoutMs?: number): Promise<ConfigUsage> {
    const labels = { [CONFIG_LABEL]: configId };
    let verified = true;
    const instances: InUseInstance[] = [];
    const agents: InUseAgent[] = [];
    const bounded = <T>(p: Promise<T>): Promise<T> => {
      if (timeoutMs === undefined) return p;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('inventory timed out')), timeoutMs);
      });
      return Promise.race([p, late]).finally(() => clearTimeout(timer));
    };
    const results = await Promise.allSettled([
      ...this.instanceListers.map(async (l) => instances.push(...(await bounded(l(configId, labels))))),
      ...this.agentListers.map(async (l) => agents.push(...(await bounded(l(configId))))),
    ]);
    if (results.some((r) => r.status === 'rejected')) verified = false;
    return { instances: instances.filter((i) => i.state !== 'stopped' && i.state !== 'exited'), agents, verified };
  }
}

export const isUsed = (u: ConfigUsage) => u.instances.length > 0 || u.agents.length > 0;
