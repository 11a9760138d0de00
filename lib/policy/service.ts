// The policy domain as one service object, built by the composition root: it holds what every policy
// operation needs (the database, the approval decisions, where execs run, the agents' skills) and
// binds it to the domain functions, which stay in their parts. Nothing here knows which door a call
// came through; permissions stay with the operations.
import type { AppDb } from '@/db/client';
import type { Actor } from '../auth/actor';
import { getPolicySettings, updatePolicySettings } from '../settings';
import type { PolicySettingsPatch } from '../settings/policy-settings';
import { type ApprovalDecisions, type ApprovalState, decideApproval, getApproval, listApprovals } from './approvals/approvals';
import { evaluateCommand, replayCommands } from './decide';
import { policyPool } from './engine/pool';
import { type ExecDeps, type ExecRequestInput, execForAgent } from './exec/exec';
import { agentExecLog, type ExecLogQuery, readExecLog } from './exec/log';
import type { SandboxDeps } from './exec/run';
import { agentPolicy, createProfile, deleteProfile, getProfile, listProfiles, updateProfile } from './profiles/store';
import { policyEngine, presetDefs } from './runtime';

export interface PolicyServiceDeps extends SandboxDeps {
  db: AppDb;
  /** Wakes this process's execs waiting on an approval when it is decided. */
  decisions: ApprovalDecisions;
  agentSkills: ExecDeps['agentSkills'];
}

export class PolicyService {
  /** What the exec, the profile store and the tester are called with. */
  readonly deps: ExecDeps;

  constructor(d: PolicyServiceDeps) {
    this.deps = {
      db: d.db,
      presets: presetDefs(),
      engine: policyEngine,
      instances: d.instances,
      routes: d.routes,
      decisions: d.decisions,
      settings: () => getPolicySettings(d.db),
      agentSkills: d.agentSkills,
    };
  }

  listProfiles() {
    return listProfiles(this.deps);
  }

  createProfile(actor: Actor, input: Parameters<typeof createProfile>[2]) {
    return createProfile(this.deps, actor, input);
  }

  getProfile(name: string) {
    return getProfile(this.deps, name);
  }

  updateProfile(actor: Actor, name: string, input: Parameters<typeof updateProfile>[3]) {
    return updateProfile(this.deps, actor, name, input);
  }

  deleteProfile(actor: Actor, name: string) {
    return deleteProfile(this.deps, actor, name);
  }

  agentPolicy(agentId: string) {
    return agentPolicy(this.deps, agentId);
  }

  // The tester and replay decide in a worker thread with a time budget, never on the event loop.
  evaluate(input: Parameters<typeof evaluateCommand>[1]) {
    return evaluateCommand({ ...this.deps, offload: policyPool() }, input);
  }

  replay(input: Parameters<typeof replayCommands>[1]) {
    return replayCommands({ ...this.deps, offload: policyPool() }, input);
  }

  settings() {
    return getPolicySettings(this.deps.db);
  }

  updateSettings(actor: Actor, patch: PolicySettingsPatch) {
    return updatePolicySettings(this.deps.db, actor, patch);
  }

  listApprovals(q: { state?: ApprovalState; agentId?: string; limit: number }) {
    return listApprovals(this.deps, q);
  }

  /** One request; with an agent id, only if it is that agent's. */
  getApproval(id: string, agentId?: string) {
    return getApproval(this.deps, id, agentId);
  }

  decideApproval(actor: Actor, id: string, to: 'approved' | 'rejected', note?: string) {
    return decideApproval(this.deps, actor, id, to, note);
  }

  execLog(q: ExecLogQuery) {
    return readExecLog(this.deps.db, q);
  }

  agentExecLog(agentId: string, q: Omit<ExecLogQuery, 'agentId'>) {
    return agentExecLog(this.deps.db, agentId, q);
  }

  exec(actor: Actor, agentId: string, input: ExecRequestInput) {
    return execForAgent(this.deps, actor, agentId, input);
  }
}
