// SandboxBackend over the E2B protocol, for E2B (cloud or self-hosted) and CubeSandbox: the control
// plane creates, lists and kills sandboxes; envd inside each runs processes and moves files.
import path from 'node:path/posix';
import type { Readable } from 'node:stream';
import { AppError, hasCode } from '@/lib/core/errors';
import { trimEndChar } from '@/lib/core/text';
import { type NetworkPolicy, OPEN_POLICY } from '@/lib/network/policy/types';
import type { BackendCapabilities, CreateSandboxSpec, ExecRequest, ExecResult, FileEntry, SandboxBackend, SandboxInfo, SandboxState } from '../backend';
import { capabilitiesFor, DEFAULT_TTL_SECONDS, type E2bConfig, type E2bKind, MANAGED_KEY } from './config';
import { ControlPlane, checkSandboxId, type ListedSandbox, type NewSandbox, type Optional } from './control';
import { Envd, type EnvdSandbox } from './envd';
import { upstreamError } from './errors';
import { networkUpdateWire, networkWire } from './network-wire';
import { readError, Transport, type TransportDeps } from './transport';

/** How long a killed process may take to report its end before the stream is dropped. */
const KILL_GRACE_MS = 2000;

export class E2bBackend implements SandboxBackend {
  readonly control: ControlPlane;
  private readonly http: Transport;
  private readonly sandboxes = new Map<string, EnvdSandbox>();

  constructor(
    readonly kind: E2bKind,
    private readonly cfg: E2bConfig,
    deps: TransportDeps = {},
  ) {
    this.http = new Transport(cfg, deps);
    this.control = new ControlPlane(cfg, this.http);
  }

  capabilities(): BackendCapabilities {
    return capabilitiesFor(this.kind);
  }

  async ping(signal?: AbortSignal): Promise<{ latencyMs: number }> {
    const t0 = performance.now();
    await this.control.health(signal);
    return { latencyMs: Math.round(performance.now() - t0) };
  }

  async imageExists(template: string, signal?: AbortSignal): Promise<boolean> {
    const u = new URL(this.cfg.apiUrl);
    const res = await this.http.send({
      method: 'GET',
      origin: u.origin,
      path: `${trimEndChar(u.pathname, '/')}/templates`,
      headers: { 'x-api-key': this.cfg.apiKey, accept: 'application/json' },
      signal,
    });
    if (res.status === 404 || res.status === 405 || res.status === 501) {
      res.body.resume();
      throw new AppError('sandbox_unsupported', 'The sandbox service does not list templates; a create will tell whether the template exists.');
    }
    if (res.status >= 400) throw upstreamError('The template list', await readError(res));
    let text = '';
    for await (const c of res.body) text += (c as Buffer).toString('utf8');
    const list = JSON.parse(text || '[]') as { templateID?: string; aliases?: string[]; names?: string[] }[];
    return list.some((t) => t.templateID === template || t.aliases?.includes(template) || t.names?.includes(template));
  }

  async create(spec: CreateSandboxSpec, signal?: AbortSignal): Promise<SandboxInfo> {
    const labels = { ...(spec.labels ?? {}), [MANAGED_KEY]: 'true' };
    const templateID = spec.image || this.cfg.template;
    const created = await this.control.create(
      {
        templateID,
        timeout: spec.idleTtlSeconds ?? this.cfg.sandboxTtlSeconds ?? DEFAULT_TTL_SECONDS,
        metadata: labels,
        envVars: spec.env ?? {},
        secure: true,
        ...this.networkFields(spec),
      },
      signal,
    );
    this.sandboxes.set(created.sandboxID, { id: created.sandboxID, domain: created.domain, accessToken: created.envdAccessToken });
    return { id: created.sandboxID, backend: this.kind, image: created.templateID || templateID, labels, state: 'running', createdAt: new Date() };
  }

  /** The create body's egress fields; `network: 'none'` closes egress whatever the policy allows. */
  private networkFields(spec: CreateSandboxSpec): Pick<NewSandbox, 'allow_internet_access' | 'network'> {
    if (spec.network === 'none') return networkWire(this.kind, { ...OPEN_POLICY, denyEgressByDefault: true }, {});
    if (!spec.networkPolicy) return {};
    return networkWire(this.kind, spec.networkPolicy, spec.networkSecrets ?? {});
  }

  async get(id: string, signal?: AbortSignal): Promise<SandboxInfo | null> {
    const s = await this.control.get(id, signal);
    return s ? this.info(s) : null;
  }

  async list(labels: Record<string, string> = {}, signal?: AbortSignal): Promise<SandboxInfo[]> {
    const want = { ...labels, [MANAGED_KEY]: 'true' };
    const all = await this.control.list(want, signal);
    // The filter is also applied here: a compatible server may ignore the metadata query.
    return all.filter((s) => Object.entries(want).every(([k, v]) => s.metadata?.[k] === v)).map((s) => this.info(s));
  }

  private info(s: ListedSandbox): SandboxInfo {
    const state: SandboxState = s.state === 'paused' ? 'paused' : s.state === 'running' || !s.state ? 'running' : 'unknown';
    return { id: s.sandboxID, backend: this.kind, image: s.templateID, labels: s.metadata ?? {}, state, createdAt: new Date(s.startedAt) };
  }

  /** envd of one sandbox; its access token comes from create, else from the sandbox's detail. */
  async envd(id: string, signal?: AbortSignal): Promise<Envd> {
    checkSandboxId(id);
    let s = this.sandboxes.get(id);
    if (!s) {
      const d = await this.control.get(id, signal);
      if (!d) throw new AppError('sandbox_not_found', `Sandbox ${id} was not found (it may have expired)`);
      s = { id, domain: d.domain, accessToken: d.envdAccessToken };
      if (!s.accessToken) {
        const c = await this.control.connect(id, this.cfg.sandboxTtlSeconds ?? DEFAULT_TTL_SECONDS, signal);
        s = { id, domain: c.domain ?? d.domain, accessToken: c.envdAccessToken };
      }
      this.sandboxes.set(id, s);
    }
    return new Envd(this.cfg, this.http, s);
  }

  async exec(id: string, req: ExecRequest): Promise<ExecResult> {
    if (!req.argv.length || !req.argv[0]) throw new AppError('validation', 'exec needs a non-empty argv', { issues: [{ path: 'argv', message: 'empty' }] });
    const envd = await this.envd(id, req.signal);
    const t0 = performance.now();
    const ctl = new AbortController();
    const onAbort = () => ctl.abort(req.signal?.reason);
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const out = { stdout: [] as Buffer[], stderr: [] as Buffer[], sizes: { stdout: 0, stderr: 0 } };
    let truncated = false;
    let timedOut = false;
    let pid: number | undefined;
    let exitCode: number | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      if (pid === undefined) return ctl.abort();
      envd.sendSignal(pid).catch(() => {});
      setTimeout(() => ctl.abort(), KILL_GRACE_MS).unref();
    }, req.timeoutMs);
    try {
      const events = envd.start(
        { cmd: req.argv[0], args: req.argv.slice(1), envs: req.env, cwd: req.cwd, stdin: req.stdin !== undefined },
        { user: req.user, signal: ctl.signal, deadlineMs: req.timeoutMs + KILL_GRACE_MS * 2 },
      );
      for await (const ev of events) {
        if (ev.type === 'start') {
          pid = ev.pid;
          if (req.stdin !== undefined) await this.feed(envd, pid, req.stdin);
        } else if (ev.type === 'data' && ev.stream !== 'pty') {
          const room = req.maxOutputBytes - out.sizes[ev.stream];
          if (ev.data.length > room) truncated = true;
          if (room > 0) out[ev.stream].push(ev.data.subarray(0, room));
          out.sizes[ev.stream] += Math.min(ev.data.length, Math.max(room, 0));
        } else if (ev.type === 'end') {
          exitCode = ev.exitCode;
        }
      }
    } catch (e) {
      if (!(timedOut && (ctl.signal.aborted || hasCode(e, 'sandbox_timeout')))) throw e;
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    }
    return {
      exitCode: exitCode ?? (timedOut ? 137 : -1),
      stdout: Buffer.concat(out.stdout).toString('utf8'),
      stderr: Buffer.concat(out.stderr).toString('utf8'),
      truncated,
      timedOut,
      durationMs: Math.round(performance.now() - t0),
    };
  }

  private async feed(envd: Envd, pid: number, stdin: string | Buffer): Promise<void> {
    const data = Buffer.isBuffer(stdin) ? stdin : Buffer.from(stdin, 'utf8');
    for (let i = 0; i < data.length; i += 64 << 10) await envd.sendInput(pid, data.subarray(i, i + (64 << 10)));
    await envd.closeStdin(pid);
  }

  async writeFile(id: string, filePath: string, data: Buffer, mode?: number): Promise<void> {
    const envd = await this.envd(id);
    await envd.writeFile(filePath, data);
    if (mode !== undefined) {
      const r = await this.exec(id, { argv: ['chmod', (mode & 0o7777).toString(8), filePath], timeoutMs: 10_000, maxOutputBytes: 4096 });
      if (r.exitCode !== 0) throw new AppError('sandbox_error', `chmod of ${filePath} failed: ${r.stderr.trim().split('\n')[0] ?? ''}`);
    }
  }

  async readFile(id: string, filePath: string, maxBytes: number): Promise<Readable> {
    return (await this.envd(id)).readFile(filePath, maxBytes);
  }

  async listFiles(id: string, dir: string): Promise<FileEntry[]> {
    const entries = await (await this.envd(id)).listDir(dir);
    return entries.map((e) => ({ ...e, path: e.path || path.join(dir, e.name) }));
  }

  async remove(id: string, signal?: AbortSignal): Promise<void> {
    await this.control.kill(id, signal);
    this.sandboxes.delete(id);
  }

  /** Sets the remaining lifetime; `unsupported` when the remote has no such route. */
  setTimeout(id: string, seconds: number): Promise<Optional> {
    return this.control.setTimeout(id, seconds);
  }

  refresh(id: string, seconds: number): Promise<Optional> {
    return this.control.refresh(id, seconds);
  }

  /** Replaces the egress policy of a running sandbox (E2B only; Cube has no such route and is not asked). */
  async applyNetworkPolicy(id: string, policy: NetworkPolicy, signal?: AbortSignal, secrets: Record<string, string> = {}): Promise<'updated' | 'unsupported'> {
    if (!this.capabilities().networkUpdate) return 'unsupported';
    const r = await this.control.updateNetwork(id, networkUpdateWire(this.kind, policy, secrets), signal);
    return r === 'ok' ? 'updated' : 'unsupported';
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
