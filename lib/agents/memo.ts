// What one agents service keeps between calls, built once by the composition root (lib/services.ts)
// and passed in AgentsDeps: two services in one process (tests, replicas) never share an answer.
import type { AppDb } from '@/db/client';
import type { AgentInputs, DefaultsInputs, Effective } from './effective';
import { EffectiveCache } from './effective-cache';
import type { AgentVersionWatcher } from './events-watcher';
import { AgentProbeReads } from './probe';
import { SkillPolicyCache } from './skill-policy';
import type { AgentTarget } from './target';

/** The agent's and the defaults' rows as last read, by the stamps they were read at. */
export interface KeptInputs {
  agentStamp: string;
  defaultsStamp: string;
  sandboxConfigId: string | null;
  agent: AgentInputs;
  defaults: DefaultsInputs;
}

export class AgentsMemo {
  readonly effective = new EffectiveCache();
  /** Sandbox targets by config (and the agent's own variable names), with the key they were loaded under. */
  readonly sandboxes = new Map<string, { key: string; at: number; target: Promise<AgentTarget> }>();
  /** The gateway's JSON of each answer, serialised once. */
  readonly bodies = new WeakMap<Effective, string>();
  readonly inputs = new Map<string, KeptInputs>();
  /** Exec-policy checks of skills, kept across explains (by skill content and profile rules). */
  readonly skillPolicy = new SkillPolicyCache();
  readonly probes: AgentProbeReads;
  /** Follows agents' versions for the event streams; made at the first stream. */
  watcher: AgentVersionWatcher | null = null;

  constructor(db: AppDb) {
    this.probes = new AgentProbeReads(db);
  }
}
