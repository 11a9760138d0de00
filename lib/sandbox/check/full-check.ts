// The full check of a sandbox config: every probe from "can we build a client" to "the limits are
// visible inside a real sandbox", each reported pass / fail / skipped with a reason and its latency.
// Cleanup always runs, also after a failed create, so a check leaves nothing behind.
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { isAppError } from '../../core/errors';
import type { CreateSandboxSpec, SandboxBackend, SandboxInfo } from '../backend';

export type ProbeStatus = 'pass' | 'fail' | 'skipped';

export interface ProbeResult {
  name: string;
  status: ProbeStatus;
  reason?: string;
  latencyMs: number;
  detail?: Record<string, string | number | boolean | null>;
}

export interface FullCheckReport {
  probes: ProbeResult[];
  passed: boolean;
  startedAt: string;
  durationMs: number;
}

/** Limits the config asks for, to compare with what the sandbox shows. */
export interface ExpectedLimits {
  memoryMb?: number;
  pids?: number;
}

export interface FullCheckInput {
  /** Builds the backend from the stored config; a throw is the `client` probe's failure. */
  backend: () => SandboxBackend | Promise<SandboxBackend>;
  spec: CreateSandboxSpec;
  expected?: ExpectedLimits;
  /** Extra probes run inside the created sandbox (the network rules add theirs). */
  extraProbes?: { name: string; run: (backend: SandboxBackend, sandbox: SandboxInfo) => Promise<Omit<ProbeResult, 'name' | 'latencyMs'>> }[];
  onProbe?: (probe: ProbeResult, index: number, total: number) => void;
  /** Stop after the probes that create nothing (client, endpoint, credentials, image): "Test connection". */
  connectionOnly?: boolean;
  /** Why the image probe is skipped (a connection test before an image was entered). */
  skipImage?: string;
  log?: (line: string, stream?: 'info' | 'stderr') => void;
  signal?: AbortSignal;
}

export const PROBE_NAMES = ['client', 'endpoint', 'credentials', 'image', 'create', 'exec', 'files', 'limits', 'cleanup'] as const;
export const CONNECTION_PROBES = PROBE_NAMES.slice(0, 4);

/** Rejects when `signal` aborts, so a backend call that ignores it cannot hold a probe past its deadline. */
function untilAborted(signal: AbortSignal | undefined): Promise<never> | null {
  if (!signal) return null;
  return new Promise<never>((_, reject) => {
    const fail = () => reject(signal.reason instanceof Error ? signal.reason : new Error('the check was stopped'));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}

const EXEC_TIMEOUT_MS = 20_000;
const MAX_OUTPUT = 64 * 1024;

function errMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

async function sha256Of(stream: Readable): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of stream) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** Parses cgroup v2 `memory.max` / `pids.max` (or v1 equivalents): a number, or null for "max". */
function parseLimit(text: string): number | null {
  const t = text.trim();
  if (!t || t === 'max') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

export async function runFullCheck(input: FullCheckInput): Promise<FullCheckReport> {
  const started = Date.now();
  const probes: ProbeResult[] = [];
  const total = input.connectionOnly ? CONNECTION_PROBES.length : PROBE_NAMES.length + (input.extraProbes?.length ?? 0);
  const aborted = untilAborted(input.signal);
  aborted?.catch(() => {});
  const log = input.log ?? (() => {});
  let failed = false;

  const record = (p: ProbeResult) => {
    probes.push(p);
    if (p.status === 'fail') failed = true;
    log(`${p.status.toUpperCase().padEnd(7)} ${p.name} (${p.latencyMs} ms)${p.reason ? `: ${p.reason}` : ''}`, p.status === 'fail' ? 'stderr' : 'info');
    input.onProbe?.(p, probes.length, total);
  };
  const skip = (name: string, reason: string) => record({ name, status: 'skipped', reason, latencyMs: 0 });
  /** Runs one probe unless an earlier one failed; returns its value or undefined. */
  const probe = async <T>(
    name: string,
    fn: () => Promise<{ value: T; result?: Pick<ProbeResult, 'detail' | 'reason'>; skipped?: string }>,
  ): Promise<T | undefined> => {
    if (failed) {
      skip(name, 'an earlier probe failed');
      return undefined;
    }
    if (input.signal?.aborted) {
      skip(name, 'the check was cancelled');
      failed = true;
      return undefined;
    }
    const t0 = Date.now();
    try {
      const { value, result, skipped } = await (aborted ? Promise.race([fn(), aborted]) : fn());
      record({ name, status: skipped ? 'skipped' : 'pass', ...result, ...(skipped ? { reason: skipped } : {}), latencyMs: Date.now() - t0 });
      return value;
    } catch (e) {
      record({ name, status: 'fail', reason: errMessage(e), latencyMs: Date.now() - t0 });
      return undefined;
    }
  };

  const backend = await probe('client', async () => ({ value: await input.backend() }));
  // A service that answers but refuses the credentials is reachable: that is the next probe's failure.
  let refused: unknown;
  await probe('endpoint', async (): Promise<{ value: unknown; result: Pick<ProbeResult, 'detail'> }> => {
    try {
      const r = await backend!.ping(input.signal);
      const runtimes = backend!.runtimes ? (await backend!.runtimes()).join(', ') : undefined;
      return { value: r, result: { detail: { version: r.version ?? null, ...(runtimes !== undefined ? { runtimes } : {}) } } };
    } catch (e) {
      if (!isAppError(e) || e.code !== 'sandbox_credentials_rejected') throw e;
      refused = e;
      return { value: null, result: { detail: { answered: true } } };
    }
  });
  await probe('credentials', async () => {
    if (refused) throw refused;
    // Listing is the first call that needs the credentials on every backend.
    const list = await backend!.list({}, input.signal);
    return { value: true, result: { detail: { sandboxes: list.length } } };
  });
  await probe('image', async () => {
    if (input.skipImage) return { value: true, skipped: input.skipImage };
    const ok = await backend!.imageExists(input.spec.image, input.signal);
    if (!ok) throw new Error(`image or template "${input.spec.image}" is not present (Skilldock never pulls: build or load it first)`);
    return { value: true };
  });

  if (input.connectionOnly) return report(probes, started);

  let sandbox: SandboxInfo | undefined;
  let createAttempted = false;
  // A label unique to this run, so cleanup finds what a half-failed create left and nothing else.
  const runLabel = { 'io.skilldock.check': randomBytes(8).toString('hex') };
  try {
    sandbox = await probe('create', async () => {
      createAttempted = true;
      const s = await backend!.create({ ...input.spec, labels: { ...input.spec.labels, ...runLabel } }, input.signal);
      return { value: s, result: { detail: { id: s.id } } };
    });

    await probe('exec', async () => {
      const marker = `skilldock-check-${randomBytes(6).toString('hex')}`;
      const r = await backend!.exec(sandbox!.id, { argv: ['echo', marker], timeoutMs: EXEC_TIMEOUT_MS, maxOutputBytes: MAX_OUTPUT, signal: input.signal });
      if (r.exitCode !== 0) throw new Error(`echo exited with code ${r.exitCode}: ${r.stderr.trim().slice(0, 200)}`);
      if (r.stdout.trim() !== marker) throw new Error(`expected the marker back, got ${JSON.stringify(r.stdout.slice(0, 100))}`);
      return { value: true, result: { detail: { execMs: r.durationMs } } };
    });

    await probe('files', async () => {
      const data = randomBytes(64 * 1024);
      const want = createHash('sha256').update(data).digest('hex');
      const path = '/workspace/input/.skilldock-check';
      await backend!.writeFile(sandbox!.id, path, data);
      const got = await sha256Of(await backend!.readFile(sandbox!.id, path, data.length));
      if (got !== want) throw new Error(`file round trip changed the bytes (sha256 ${got.slice(0, 12)}… ≠ ${want.slice(0, 12)}…)`);
      return { value: true, result: { detail: { bytes: data.length } } };
    });

    await probe('limits', async () => {
      const read = async (argv: string[]) => {
        const r = await backend!.exec(sandbox!.id, { argv, timeoutMs: EXEC_TIMEOUT_MS, maxOutputBytes: MAX_OUTPUT, signal: input.signal });
        return r.exitCode === 0 ? r.stdout : '';
      };
      const memory = parseLimit((await read(['cat', '/sys/fs/cgroup/memory.max'])) || (await read(['cat', '/sys/fs/cgroup/memory/memory.limit_in_bytes'])));
      const pids = parseLimit((await read(['cat', '/sys/fs/cgroup/pids.max'])) || (await read(['cat', '/sys/fs/cgroup/pids/pids.max'])));
      const files = parseLimit(await read(['sh', '-c', 'ulimit -n']));
      const want = input.expected ?? {};
      const problems: string[] = [];
      if (want.memoryMb && memory !== want.memoryMb * 1024 * 1024)
        problems.push(`memory limit inside is ${memory === null ? 'unlimited' : `${Math.round(memory / 1048576)} MiB`}, expected ${want.memoryMb} MiB`);
      if (want.pids && pids !== want.pids) problems.push(`pids limit inside is ${pids ?? 'unlimited'}, expected ${want.pids}`);
      if (problems.length) throw new Error(problems.join('; '));
      return { value: true, result: { detail: { memoryBytes: memory, pids, openFiles: files } } };
    });

    for (const extra of input.extraProbes ?? [])
      await probe(extra.name, async () => {
        const r = await extra.run(backend!, sandbox!);
        if (r.status === 'fail') throw new Error(r.reason ?? 'failed');
        return { value: true, result: { detail: r.detail }, skipped: r.status === 'skipped' ? (r.reason ?? 'not applicable') : undefined };
      });
  } finally {
    const t0 = Date.now();
    if (sandbox || createAttempted) {
      try {
        if (sandbox) await backend!.remove(sandbox.id);
        // A create that failed half-way may still have left something under this run's label.
        for (const s of await backend!.list(runLabel)) if (!sandbox || s.id !== sandbox.id) await backend!.remove(s.id);
        record({ name: 'cleanup', status: 'pass', latencyMs: Date.now() - t0 });
      } catch (e) {
        record({ name: 'cleanup', status: 'fail', reason: errMessage(e), latencyMs: Date.now() - t0 });
      }
    } else skip('cleanup', 'nothing was created');
  }

  return report(probes, started);
}

function report(probes: ProbeResult[], started: number): FullCheckReport {
  return { probes, passed: !probes.some((p) => p.status === 'fail'), startedAt: new Date(started).toISOString(), durationMs: Date.now() - started };
}
