// Running an allowed command in the agent's own sandbox of its config: a running sandbox labelled
// for that agent (the one used last, else the newest, else a new one started for it) — never one
// of another agent or a person. The env is the config's variables, the agent's own variables and, for
// an exec that names its skill, that skill's variables (never a person's), plus the skill folder
// variables, given to this exec only; the output is capped per stream; every exec's written files
// are listed by Skilldock's own means (and scanned when the profile says so).

import type { Actor } from '../../auth/actor';
import { AppError, hasCode } from '../../core/errors';
import type { SandboxBackend } from '../../sandbox/backend';
import { agentEnvOwner } from '../../sandbox/env/resolve';
import { loadEnvFor } from '../../sandbox/env/store';
import { runningOrStart } from '../../sandbox/instances/claim';
import { agentPrincipal } from '../../sandbox/instances/principal';
import { type InstanceDeps, resolve, runningFor } from '../../sandbox/instances/service';
import type { ScriptDigest } from '../approvals/binding';
import { digestsIn, scriptCandidates } from '../approvals/script-digests';
import type { SegmentDecision } from '../types';
import { recordWritten, scanWritten, startTracking, TRACKED_ROOTS } from './sessions';

export interface SandboxDeps {
  instances: InstanceDeps;
  /** Where this service's agents' execs go (one per composition root). */
  routes: ExecRoutes;
}

export interface AgentSandbox {
  agentId: string;
  configId: string;
  /** The skill the command runs for, with the env names it declares (the agent's skill variables are limited to those). */
  skill?: { key: string; declaredEnv: readonly string[] } | null;
}

export interface RunRequest {
  command: string;
  cwd?: string;
  stdin?: string;
  timeoutMs: number;
  outputCap: number;
  /** Commands of this agent that may run at once (in this process); past it, 429. */
  maxConcurrent: number;
  /** Added to the credentials env (the skill folder variables); looked up while the sandbox is found. */
  env: Promise<Record<string, string>>;
  /**
   * Where the agent's workspace is (tracked with the usual writable places), whether written files
   * are scanned, and whether the command only installs named registry packages (then not tracked).
   */
  track: { root: string; scan: boolean; installOnly?: boolean };
}

export interface RunResult {
  outcome: 'ran';
  exitCode: number;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  durationMs: number;
  sandboxId: string;
  writtenFiles: string[];
}

/** Written files scanned per exec at most. */
const MAX_SCANNED = 20;

type Resolved = Awaited<ReturnType<typeof resolve>> & { id: string };

/** Where agents' execs go: kept per composition root (lib/services.ts), never across two. */
export class ExecRoutes {
  /**
   * The instance each agent's execs went to last, per config, so its sessions keep their workspace.
   * It is used without asking the engine first; a call that finds it gone (before anything started) drops it.
   */
  readonly last = new Map<string, Resolved>();
  /** One start at a time per agent and config in this process: concurrent first execs share one call. */
  readonly starting = new Map<string, Promise<string>>();
  /** Commands running per agent. */
  readonly running = new Map<string, number>();
}

const routeKey = (t: AgentSandbox) => `${t.configId}/${t.agentId}`;

async function instanceFor(deps: SandboxDeps, actor: Actor, target: AgentSandbox): Promise<Resolved> {
  const { last: lastInstance, starting } = deps.routes;
  const key = routeKey(target);
  const last = lastInstance.get(key);
  if (last) return last;
  let pending = starting.get(key);
  if (!pending) {
    // Across replicas too: runningOrStart finds or starts under a database lock.
    pending = runningOrStart(deps.instances, actor, target.configId, agentPrincipal(target.agentId)).finally(() => starting.delete(key));
    starting.set(key, pending);
  }
  const id = await pending;
  const r = { id, ...(await resolve(deps.instances, id)) };
  lastInstance.set(key, r);
  return r;
}

/** The engine refused the exec itself (the sandbox is gone or stopped): nothing ran. */
const sandboxGone = (e: unknown) => hasCode(e, 'sandbox_not_found') || hasCode(e, 'conflict') || hasCode(e, 'not_found');

const cut = (s: string, cap: number): { text: string; cut: boolean } => {
  const b = Buffer.from(s, 'utf8');
  return b.length > cap ? { text: b.subarray(0, cap).toString('utf8'), cut: true } : { text: s, cut: false };
};

async function tracked(backend: SandboxBackend, sandboxId: string, track: RunRequest['track'], run: () => Promise<RunResult>) {
  const tracker = await startTracking(backend, sandboxId, [...TRACKED_ROOTS, track.root]);
  const result = await run();
  if (!tracker) return { result, files: [] as { path: string; clean: boolean }[] };
  const paths = await tracker.collect().catch(() => []);
  // Scanned: the first few (a package install can touch hundreds); the rest count as not clean.
  const files = await Promise.all(
    paths.map(async (p, i) => ({ path: p, clean: track.scan && i < MAX_SCANNED ? await scanWritten(backend, sandboxId, p) : false })),
  );
  return { result, files };
}

/**
 * The digests of the scripts a command would run, read in the agent's running sandbox. Null when
 * none runs or it cannot be read (then only what its image holds can be there, and the approval
 * binds the rest of the request): asking for an approval never starts a sandbox.
 */
export async function scriptDigests(
  deps: SandboxDeps,
  target: AgentSandbox,
  cwd: string,
  segments: readonly SegmentDecision[],
): Promise<ScriptDigest[] | null> {
  const files = scriptCandidates(segments, cwd);
  if (!files.length) return [];
  try {
    const cached = deps.routes.last.get(routeKey(target));
    const id = cached?.id ?? (await runningFor(deps.instances, target.configId, agentPrincipal(target.agentId)))[0];
    if (!id) return null;
    const inst = cached ?? { id, ...(await resolve(deps.instances, id)) };
    return await digestsIn(inst.backend, inst.sandbox.id, files);
  } catch {
    return null;
  }
}

export async function runInSandbox(deps: SandboxDeps, actor: Actor, target: AgentSandbox, req: RunRequest): Promise<RunResult> {
  const { last: lastInstance, running } = deps.routes;
  const busy = running.get(target.agentId) ?? 0;
  if (busy >= req.maxConcurrent)
    throw new AppError('rate_limited', `Agent "${target.agentId}" already has ${busy} commands running (at most ${req.maxConcurrent} at once).`, {
      hint: 'Wait for one to end, or raise "Commands at once per agent" in the exec settings.',
      details: { limit: 'per_agent', max: req.maxConcurrent },
    });
  running.set(target.agentId, busy + 1);
  const cached = lastInstance.has(routeKey(target));
  try {
    return await runOnce(deps, actor, target, req);
  } catch (e) {
    if (!cached || !sandboxGone(e)) throw e;
    lastInstance.delete(routeKey(target));
    return await runOnce(deps, actor, target, req);
  } finally {
    const left = (running.get(target.agentId) ?? 1) - 1;
    if (left > 0) running.set(target.agentId, left);
    else running.delete(target.agentId);
  }
}

async function runOnce(deps: SandboxDeps, actor: Actor, target: AgentSandbox, req: RunRequest): Promise<RunResult> {
  const [inst, { env }, extra] = await Promise.all([
    instanceFor(deps, actor, target),
    loadEnvFor(deps.instances.db, deps.instances.secrets, {
      principal: { id: agentEnvOwner(target.agentId) },
      sandboxConfig: { id: target.configId },
      skill: target.skill ?? null,
    }),
    req.env,
  ]);
  const run = async (): Promise<RunResult> => {
    // One byte past the cap tells a stream that filled the cap from one that was cut.
    const out = await inst.backend.exec(inst.sandbox.id, {
      argv: ['sh', '-c', req.command],
      env: { ...env, ...extra },
      ...(req.cwd ? { cwd: req.cwd } : {}),
      ...(req.stdin !== undefined ? { stdin: req.stdin } : {}),
      timeoutMs: req.timeoutMs,
      maxOutputBytes: req.outputCap + 1,
    });
    const so = cut(out.stdout, req.outputCap);
    const se = cut(out.stderr, req.outputCap);
    return {
      outcome: 'ran',
      exitCode: out.exitCode,
      stdout: so.text,
      stderr: se.text,
      stdoutTruncated: so.cut,
      stderrTruncated: se.cut,
      timedOut: out.timedOut,
      durationMs: out.durationMs,
      sandboxId: inst.id,
      writtenFiles: [],
    };
  };
  if (req.track.installOnly) return run();
  const { result, files } = await tracked(inst.backend, inst.sandbox.id, req.track, run);
  await recordWritten(deps.instances.db, target.agentId, files);
  return { ...result, writtenFiles: files.map((f) => f.path) };
}
