// What a sandbox image offers a skill: which programs resolve on its PATH, and its OS. One
// short-lived container per image, started the way every sandbox is (the backend's create: the
// same capabilities, limits, runtime and user) but without a network, a host mount or a writable
// rootfs, and labelled as a probe so the idle sweep removes whatever a crash leaves. An image is
// immutable, so a result is kept per engine image id and never goes stale by content.
import { AppError } from '../../core/errors';
import { checkImage, type DockerBackend } from '../docker/backend';
import { statusOf, toAppError } from '../docker/connection';
import { runExec } from '../docker/exec';

/** On a probe container: `true`. Never a user instance, never a maintenance container. */
export const PROBE_LABEL = 'skilldock.gating-probe';
/** A program name: no path, no shell syntax, nothing the script could read as an option first. */
const BIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,127}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
export const MAX_PROBE_BINS = 256;
const PROBE_TIMEOUT_MS = 30_000;
/** Long enough for one probe; a leftover is the idle sweep's after that. */
const PROBE_IDLE_TTL_SECONDS = 300;
const PROBE_LIMITS = { cpu: 0.5, memoryMb: 128, pids: 64 } as const;

// Constant: the bins arrive as positional arguments, never inside the script. A bin counts when a
// folder on the PATH holds a regular executable file of that name, as on the host. Not `command -v`:
// a shell builtin or a busybox applet answers it with a bare name that no exec could start.
const PROBE_SCRIPT = `set -f
dirs=\${PATH:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}
for b; do
  found=
  IFS=:
  for d in $dirs; do
    case "$d" in /*) ;; *) continue ;; esac
    if [ -f "$d/$b" ] && [ -x "$d/$b" ]; then found="$d/$b"; break; fi
  done
  unset IFS
  if [ -n "$found" ]; then echo "y $b $found"; else echo "n $b"; fi
done
echo "os $(uname -s)"
echo "arch $(uname -m)"`;

export interface ImageProbe {
  /** The reference probed, and the engine's id of the image it named. */
  image: string;
  imageId: string;
  /** `uname -s` in lower case (`linux`), and `uname -m`. */
  os: string;
  arch: string;
  /** bin → absolute path in the image, or null when it does not resolve there. */
  bins: Readonly<Record<string, string | null>>;
  /** Names the image's own ENV sets to a non-empty value (of those asked for). */
  env: readonly string[];
}

export interface ProbeOptions {
  bins: readonly string[];
  envNames?: readonly string[];
  /** Extra labels on the probe container (the probe's own label wins). */
  labels?: Record<string, string>;
  limits?: { cpu?: number; memoryMb?: number; pids?: number };
}

interface Known {
  os: string;
  arch: string;
  bins: Map<string, string | null>;
  env: Map<string, string>;
}

/** Results per image id, the least recently used dropped past `max`. */
export class ImageProbeCache {
  private readonly entries = new Map<string, Known>();
  /** Probes in flight per image id: a second caller waits instead of starting its own container. */
  readonly pending = new Map<string, Promise<unknown>>();
  constructor(readonly max = 200) {}

  get(imageId: string): Known | undefined {
    const hit = this.entries.get(imageId);
    if (hit) {
      this.entries.delete(imageId);
      this.entries.set(imageId, hit);
    }
    return hit;
  }

  set(imageId: string, known: Known): void {
    this.entries.delete(imageId);
    this.entries.set(imageId, known);
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}

function refuse(path: string, message: string): AppError {
  return new AppError('validation', message, { issues: [{ path, message }] });
}

/** Refuses every name that is not a plain program name, before any engine call. */
export function checkProbeBins(bins: readonly string[]): string[] {
  if (bins.length > MAX_PROBE_BINS) throw refuse('bins', `at most ${MAX_PROBE_BINS} programs per probe`);
  for (const b of bins)
    if (typeof b !== 'string' || !BIN_NAME.test(b))
      throw refuse('bins', `${JSON.stringify(String(b).slice(0, 60))} is not a program name (letters, digits, _ . + -)`);
  return [...new Set(bins)].sort();
}

/** Parses the probe script's output; every asked bin must be answered once. */
export function parseProbeOutput(stdout: string, asked: readonly string[]): { os: string; arch: string; bins: Map<string, string | null> } {
  const want = new Set(asked);
  const bins = new Map<string, string | null>();
  let os = '';
  let arch = '';
  for (const line of stdout.split('\n')) {
    const [kind, name, ...rest] = line.split(' ');
    if (kind === 'os' && name) os = name.toLowerCase();
    else if (kind === 'arch' && name) arch = name;
    else if ((kind === 'y' || kind === 'n') && name && want.has(name) && !bins.has(name)) bins.set(name, kind === 'y' && rest.length ? rest.join(' ') : null);
  }
  const unanswered = asked.filter((b) => !bins.has(b));
  if (!os || unanswered.length)
    throw new AppError('sandbox_error', `the image probe gave no answer for ${unanswered.length ? unanswered.slice(0, 5).join(', ') : 'the OS'}`);
  return { os, arch, bins };
}

function imageEnv(env: readonly string[] | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of env ?? []) {
    const eq = e.indexOf('=');
    if (eq > 0 && eq < e.length - 1) out.set(e.slice(0, eq), e.slice(eq + 1));
  }
  return out;
}

async function runProbe(backend: DockerBackend, image: string, bins: string[], opts: ProbeOptions): Promise<ReturnType<typeof parseProbeOutput>> {
  const probeBackend = backend.withSettings({ readOnlyRootfs: true, workspaceMount: undefined, network: 'none' });
  const sandbox = await probeBackend.create({
    image,
    network: 'none',
    limits: { ...PROBE_LIMITS, ...opts.limits },
    idleTtlSeconds: PROBE_IDLE_TTL_SECONDS,
    labels: { ...opts.labels, [PROBE_LABEL]: 'true' },
  });
  const conn = backend.conn;
  const release = await backend.activity.acquireLease(sandbox.id, 'probe');
  let outcome: { ok: true; value: ReturnType<typeof parseProbeOutput> } | { ok: false; error: unknown };
  try {
    const r = await runExec(conn, sandbox.id, {
      argv: ['sh', '-c', PROBE_SCRIPT, 'skilldock-probe', ...bins],
      timeoutMs: PROBE_TIMEOUT_MS,
      maxOutputBytes: 256 * 1024,
    });
    if (r.exitCode !== 0) throw new AppError('sandbox_error', `the image probe in ${image} exited with ${r.exitCode}: ${r.stderr.slice(0, 300)}`);
    outcome = { ok: true, value: parseProbeOutput(r.stdout, bins) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  await release();
  const removal = await removeProbe(backend, sandbox.id);
  // The probe's own failure says more than a failed removal (the sweep gets that container later).
  if (!outcome.ok) throw outcome.error;
  if (removal) throw removal;
  return outcome.value;
}

/** Removes a probe container with its volumes; the error, if the engine kept it. */
async function removeProbe(backend: DockerBackend, id: string): Promise<AppError | null> {
  const conn = backend.conn;
  try {
    await conn.api.getContainer(id).remove({ force: true, v: true });
  } catch (e) {
    if (statusOf(e) !== 404) return toAppError(e, conn.endpoint, `remove probe container ${id}`);
  } finally {
    await backend.activity.forget([id]).catch(() => undefined);
  }
  return null;
}

function snapshotOf(image: string, imageId: string, known: Known, bins: readonly string[], envNames: readonly string[]): ImageProbe {
  return {
    image,
    imageId,
    os: known.os,
    arch: known.arch,
    bins: Object.fromEntries(bins.map((b) => [b, known.bins.get(b) ?? null])),
    env: envNames.filter((n) => known.env.has(n)),
  };
}

/**
 * The bins and OS of `image` on the backend's engine. Bins already known for that image id are not
 * probed again: a call that asks nothing new starts no container.
 */
export async function probeImage(backend: DockerBackend, image: string, opts: ProbeOptions, cache: ImageProbeCache): Promise<ImageProbe> {
  checkImage(image);
  const bins = checkProbeBins(opts.bins);
  const envNames = [...new Set(opts.envNames ?? [])];
  for (const n of envNames)
    if (typeof n !== 'string' || !ENV_NAME.test(n)) throw refuse('envNames', `${JSON.stringify(String(n).slice(0, 60))} is not an env name`);
  let inspected: { Id: string; Config?: { Env?: string[] } };
  try {
    inspected = await backend.conn.api.getImage(image).inspect();
  } catch (e) {
    throw toAppError(e, backend.conn.endpoint, `inspect image ${image}`);
  }
  const imageId = inspected.Id;
  // Bounded: each round either finds everything known, waits for another caller's probe, or probes.
  for (let round = 0; round < 8; round++) {
    const known = cache.get(imageId);
    const unknown = known ? bins.filter((b) => !known.bins.has(b)) : bins;
    if (known && unknown.length === 0) return snapshotOf(image, imageId, known, bins, envNames);
    const inFlight = cache.pending.get(imageId);
    if (inFlight) {
      await inFlight.catch(() => undefined);
      continue;
    }
    const run = runProbe(backend, image, unknown, opts).then((found) => {
      const now = cache.get(imageId);
      const merged = new Map([...(now?.bins ?? []), ...found.bins]);
      cache.set(imageId, { os: found.os, arch: found.arch, bins: merged, env: imageEnv(inspected.Config?.Env) });
    });
    cache.pending.set(imageId, run);
    try {
      await run;
    } finally {
      cache.pending.delete(imageId);
    }
  }
  throw new AppError('sandbox_error', `the probe of ${image} did not settle`);
}
