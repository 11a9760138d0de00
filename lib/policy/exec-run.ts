// Running an allowed command in a sandbox of the agent's config: a running instance of the config
// (the one used last, else any running one, else a new one started), the credentials resolver's env
// plus the skill folder variables, the output cap per stream, the timeout; with a session, the
// files the command wrote in the workspace are listed (and scanned when the profile says so).

import type { Actor } from '../auth/actor';
import { hasCode } from '../core/errors';
import { newId } from '../core/ids';
import type { SandboxBackend } from '../sandbox/backend';
import { loadEnvFor } from '../sandbox/env/store';
import { type InstanceDeps, listInstances, resolve, startInstance } from '../sandbox/instances/service';
import { recordWritten, scanWritten, startTracking } from './sessions';

export interface SandboxDeps {
  instances: InstanceDeps;
}

export interface AgentSandbox {
  agentId: string;
  configId: string;
}

export interface RunRequest {
  command: string;
  cwd?: string;
  stdin?: string;
  timeoutMs: number;
  outputCap: number;
  /** Added to the credentials env (the skill folder variables); looked up while the sandbox is found. */
  env: Promise<Record<string, string>>;
  track: { sessionId: string; root: string; scan: boolean } | null;
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

type Resolved = Awaited<ReturnType<typeof resolve>> & { id: string };

interface Routes {
  /**
   * The instance each config's execs went to last, so a session keeps its workspace. It is used
   * without asking the engine first; a call that finds it gone (before anything started) drops it.
   */
  last: Map<string, Resolved>;
  /** One start at a time per config: concurrent first execs share the sandbox it starts. */
  starting: Map<string, Promise<string>>;
}

/** Kept per composition root (keyed by its sandbox deps, as the agents' memos are by their database), never across two. */
const routesBy = new WeakMap<InstanceDeps, Routes>();

function routesOf(deps: SandboxDeps): Routes {
  let r = routesBy.get(deps.instances);
  if (!r) routesBy.set(deps.instances, (r = { last: new Map(), starting: new Map() }));
  return r;
}

async function instanceFor(deps: SandboxDeps, actor: Actor, configId: string): Promise<Resolved> {
  const { last: lastInstance, starting } = routesOf(deps);
  const last = lastInstance.get(configId);
  if (last) return last;
  let pending = starting.get(configId);
  if (!pending) {
    pending = (async () => {
      const running = (await listInstances(deps.instances, { configId })).items.find((i) => i.state === 'running');
      return running ? running.id : (await startInstance(deps.instances, actor, configId)).id;
    })().finally(() => starting.delete(configId));
    starting.set(configId, pending);
  }
  const id = await pending;
  const r = { id, ...(await resolve(deps.instances, id)) };
  lastInstance.set(configId, r);
  return r;
}

/** The engine refused the exec itself (the sandbox is gone or stopped): nothing ran. */
const sandboxGone = (e: unknown) => hasCode(e, 'sandbox_not_found') || hasCode(e, 'conflict') || hasCode(e, 'not_found');

const cut = (s: string, cap: number): { text: string; cut: boolean } => {
  const b = Buffer.from(s, 'utf8');
  return b.length > cap ? { text: b.subarray(0, cap).toString('utf8'), cut: true } : { text: s, cut: false };
};

async function tracked(backend: SandboxBackend, sandboxId: string, track: NonNullable<RunRequest['track']>, run: () => Promise<RunResult>) {
  const tracker = await startTracking(backend, sandboxId, track.root, `/tmp/.skilldock-exec-${newId()}`, new Date());
  const result = await run();
  if (!tracker) return { result, files: [] as { path: string; clean: boolean }[] };
  const paths = await tracker.collect().catch(() => []);
  const files = await Promise.all(paths.map(async (p) => ({ path: p, clean: track.scan ? await scanWritten(backend, sandboxId, p) : false })));
  return { result, files };
}

export async function runInSandbox(deps: SandboxDeps, actor: Actor, target: AgentSandbox, req: RunRequest): Promise<RunResult> {
  const { last: lastInstance } = routesOf(deps);
  const cached = lastInstance.has(target.configId);
  try {
    return await runOnce(deps, actor, target, req);
  } catch (e) {
    if (!cached || !sandboxGone(e)) throw e;
    lastInstance.delete(target.configId);
    return runOnce(deps, actor, target, req);
  }
}

async function runOnce(deps: SandboxDeps, actor: Actor, target: AgentSandbox, req: RunRequest): Promise<RunResult> {
  const [inst, { env }, extra] = await Promise.all([
    instanceFor(deps, actor, target.configId),
    loadEnvFor(deps.instances.db, deps.instances.secrets, { user: actor.userId ? { id: actor.userId } : null, sandboxConfig: { id: target.configId } }),
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
  if (!req.track) return run();
  const { result, files } = await tracked(inst.backend, inst.sandbox.id, req.track, run);
  await recordWritten(deps.instances.db, target.agentId, req.track.sessionId, files);
  return { ...result, writtenFiles: files.map((f) => f.path) };
}
