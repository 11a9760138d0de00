// The interface every sandbox backend implements (Docker through dockerode; E2B and CubeSandbox
// through the E2B-protocol client). Later layers — the full check, instances, network rules,
// skill installs, the terminal — talk to sandboxes only through this.
import type { Readable } from 'node:stream';
import type { NetworkPolicy } from '@/lib/network/policy/types';

export type SandboxBackendKind = 'docker' | 'e2b' | 'cube';

/** What a backend can do; optional routes a remote answers 404/501 to are reported as unsupported. */
export interface BackendCapabilities {
  networkUpdate: boolean;
  egressDomains: boolean;
  snapshots: boolean;
  tty: boolean;
  stats: boolean;
}

export interface SandboxLimits {
  cpu?: number;
  memoryMb?: number;
  pids?: number;
}

export interface CreateSandboxSpec {
  /** Docker image reference, or the E2B/Cube template id. */
  image: string;
  /** Labels (Docker) or metadata (E2B/Cube); Skilldock's own are added by the backend. */
  labels?: Record<string, string>;
  env?: Record<string, string>;
  limits?: SandboxLimits;
  /** Seconds without activity after which the sweep (Docker) or the remote (E2B timeout) ends it. */
  idleTtlSeconds?: number;
  /** Docker network to attach instead of the default; `none` for no network. */
  network?: string;
  /** Egress policy, already validated and normalised; enforced by the remote (E2B/Cube). */
  networkPolicy?: NetworkPolicy;
  /** The policy's opened secrets (`e2b:<host>:<header>`, `cube:<rule>:<header>` → value). */
  networkSecrets?: Record<string, string>;
}

export type SandboxState = 'creating' | 'running' | 'paused' | 'stopped' | 'exited' | 'unknown';

export interface SandboxInfo {
  id: string;
  backend: SandboxBackendKind;
  image: string;
  /** The engine's id of the image it runs (`sha256:…`), where the backend knows it (Docker). */
  imageId?: string;
  labels: Record<string, string>;
  state: SandboxState;
  createdAt: Date;
  /** Last exec or file operation seen, when the backend records it. */
  lastActivityAt?: Date;
}

export interface ExecRequest {
  /** An argument vector, never a shell string. */
  argv: string[];
  env?: Record<string, string>;
  cwd?: string;
  stdin?: string | Buffer;
  /** Enforced inside the sandbox; 124/137 exit codes then mean killed. */
  timeoutMs: number;
  /** Per stream; the rest is dropped and `truncated` set. */
  maxOutputBytes: number;
  user?: string;
  signal?: AbortSignal;
}

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  durationMs: number;
}

export interface FileEntry {
  name: string;
  path: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
  modifiedAt?: Date;
}

export interface SandboxBackend {
  readonly kind: SandboxBackendKind;
  /** The sandbox's clock is this process's (a container on this host's kernel): no need to ask it. */
  readonly sharesHostClock?: boolean;
  capabilities(): BackendCapabilities;
  /** Reachability and credentials; throws an AppError naming the problem and a fix. */
  ping(signal?: AbortSignal): Promise<{ latencyMs: number; version?: string }>;
  /** OCI runtimes the engine offers (Docker); absent where the backend has no such choice. */
  runtimes?(): Promise<string[]>;
  /** Whether the image (Docker) or template (E2B/Cube) exists, without pulling it. */
  imageExists(image: string, signal?: AbortSignal): Promise<boolean>;
  create(spec: CreateSandboxSpec, signal?: AbortSignal): Promise<SandboxInfo>;
  get(id: string, signal?: AbortSignal): Promise<SandboxInfo | null>;
  /** Only sandboxes Skilldock created, narrowed by the given labels/metadata. */
  list(labels?: Record<string, string>, signal?: AbortSignal): Promise<SandboxInfo[]>;
  exec(id: string, req: ExecRequest): Promise<ExecResult>;
  /** Writes one file (parent folders created); no shell involved. */
  writeFile(id: string, path: string, data: Buffer, mode?: number): Promise<void>;
  /** Streams one file's bytes; refuses more than `maxBytes`. */
  readFile(id: string, path: string, maxBytes: number): Promise<Readable>;
  listFiles(id: string, dir: string): Promise<FileEntry[]>;
  /**
   * A folder as a tar stream made by the engine from outside the sandbox (its top entry is named
   * after the folder); null when the folder does not exist. Absent where the backend has no archive API.
   */
  readArchive?(id: string, dir: string, signal?: AbortSignal): Promise<{ stream: Readable; root: string } | null>;
  /** Removes the sandbox and what it owns (volumes); absent is not an error. */
  remove(id: string, signal?: AbortSignal): Promise<void>;
  /** Replaces the egress policy of a running sandbox; `unsupported` where the backend cannot (recycle it). */
  applyNetworkPolicy?(id: string, policy: NetworkPolicy, signal?: AbortSignal, secrets?: Record<string, string>): Promise<'updated' | 'unsupported'>;
}
