import path from 'node:path';
import { z } from 'zod';

const bool = z.enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off']).transform((v) => ['1', 'true', 'yes', 'on'].includes(v));
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/**
 * Every environment variable Skilldock reads. The table in docs/configuration.md lists the same names
 * and defaults; lib/core/config-docs.test.ts keeps the two in step.
 */
export const envSchema = z.object({
  PORT: int(1, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  SKILLDOCK_DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  SKILLDOCK_PUBLIC_URL: z.url().optional(),
  /** The base URL other replicas reach this one on (terminal relays); default http://<hostname>:<PORT>. */
  SKILLDOCK_INTERNAL_URL: z.url().optional(),
  NEXTAUTH_SECRET: z.string().min(32, 'NEXTAUTH_SECRET must be at least 32 characters').optional(),
  SKILLDOCK_SECRET_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/=_-]{43,88}$/, 'SKILLDOCK_SECRET_KEY must be 32 bytes in base64 or base64url')
    .optional(),
  SKILLDOCK_ADMIN_EMAIL: z.email().optional(),
  SKILLDOCK_ADMIN_PASSWORD: z.string().min(12, 'SKILLDOCK_ADMIN_PASSWORD must be at least 12 characters').optional(),
  DOCKER_HOST: z.string().optional(),
  RUNTIME_DIR: z.string().min(1).optional(),
  /** Folders (comma-separated) a Docker config's TLS certificate folder must be inside; default <data dir>/docker-certs. */
  SKILLDOCK_DOCKER_TLS_ROOTS: z.string().optional(),
  /** Host folders (comma-separated) a Docker config may mount at /workspace; unset, no mount is allowed. */
  SKILLDOCK_WORKSPACE_ROOTS: z.string().optional(),
  /** Folders a local gateway's state folder must be inside (comma-separated); empty: no local gateway. */
  SKILLDOCK_GATEWAY_ROOTS: z.string().optional(),
  /** How often the gateway watcher compares each auto-syncing gateway's desired state with its last sync. */
  SKILLDOCK_GATEWAY_POLL_MS: int(50, 60_000).default(250),
  SKILLDOCK_WORKER: bool.default(true),
  SKILLDOCK_WORKER_CONCURRENCY: int(1, 64).default(4),
  SKILLDOCK_JOB_LEASE_MS: int(1000, 3_600_000).default(30_000),
  /** Worker threads of the skill scanner; 0: one per core. */
  SKILLDOCK_SCAN_WORKERS: int(0, 64).default(0),
  /** Time one skill's scan may take; past it the scan stops with verdict "error" (blocked until acknowledged) and runs again on the next build. */
  SKILLDOCK_SCAN_BUDGET_MS: int(1, 3_600_000).default(10_000),
  /** On SIGTERM/SIGINT: how long running jobs may take to finish or stop (system package steps are never interrupted) before the server exits anyway. */
  SKILLDOCK_SHUTDOWN_GRACE_MS: int(0, 3_600_000).default(30_000),
  /** Job event streams (SSE) one user or token may hold open at once; past it, 429. */
  SKILLDOCK_STREAMS_PER_USER: int(1, 1000).default(16),
  /** Finished jobs (and their logs) older than this many days are deleted by the daily sweep. */
  SKILLDOCK_RETENTION_JOB_DAYS: int(1, 36_500).default(90),
  /** Audit records older than this many days are deleted by the daily sweep. */
  SKILLDOCK_RETENTION_AUDIT_DAYS: int(1, 36_500).default(365),
  SKILLDOCK_MAX_BODY_BYTES: int(1024, 64 * 1024 * 1024).default(1024 * 1024),
  /** Reverse proxies in front of Skilldock: a hop count ("1") or CIDRs ("10.0.0.0/8,::1"); unset, X-Forwarded-For is ignored. */
  SKILLDOCK_TRUSTED_PROXIES: z.string().optional(),
  /** Extra Host names (comma-separated, with or without a port) the server answers besides the public URL and loopback. */
  SKILLDOCK_ALLOWED_HOSTS: z.string().optional(),
  /** Absolute lifetime of a console session in seconds, however active it is. */
  SKILLDOCK_SESSION_MAX_AGE: int(300, 365 * 86_400).default(7 * 86_400),
  SKILLDOCK_LOGIN_MAX_FAILURES: int(1, 1000).default(5),
  SKILLDOCK_LOGIN_IP_MAX_FAILURES: int(1, 10000).default(30),
  SKILLDOCK_LOGIN_ACCOUNT_MAX_FAILURES: int(1, 100_000).default(50),
  SKILLDOCK_LOGIN_WINDOW_MS: int(1000, 86_400_000).default(15 * 60_000),
  SKILLDOCK_ALLOWED_ORIGINS: z.string().optional(),
  /** `auto`: enforce sandbox network rules on the local Docker engine when running as root with nft; `off`: never. */
  SKILLDOCK_NETWORK_ENFORCEMENT: z.enum(['auto', 'off']).default('auto'),
  /** The nft table this process owns (also the owner label of its sandbox networks). */
  SKILLDOCK_NFT_TABLE: z
    .string()
    .regex(/^skilldock[a-z0-9_]{0,20}$/, 'SKILLDOCK_NFT_TABLE must start with "skilldock" and use a-z, 0-9 and _ (at most 29 characters)')
    .default('skilldock'),
  /** Port of the egress proxy on each sandbox network's gateway. */
  SKILLDOCK_EGRESS_PROXY_PORT: int(1, 65535).default(3129),
  /** Port of the DNS forwarder on each sandbox network's gateway. */
  SKILLDOCK_SANDBOX_DNS_PORT: int(1, 65535).default(53),
  /** DNS servers the forwarder and the proxy ask (comma-separated ip or ip:port); default: /etc/resolv.conf. */
  SKILLDOCK_DNS_UPSTREAMS: z.string().optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** Which API requests get a log line: none, writes and errors, or every request (gateway polls included). */
  SKILLDOCK_REQUEST_LOG: z.enum(['off', 'writes', 'all']).default('writes'),
  /** GitHub tokens for the default API base when none is stored in Settings (read from the environment by the GitHub client). */
  GITHUB_TOKEN: z.string().optional(),
  GH_TOKEN: z.string().optional(),
  /** The sandbox control kit's build folder and compiler (read where the kit is built, also outside a server). */
  SKILLDOCK_KIT_DIR: z.string().min(1).optional(),
  SKILLDOCK_KIT_CC: z.string().min(1).optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  dataDir: string;
  pgliteDir: string;
  /** Where Skilldock installs packages: RUNTIME_DIR, else <data dir>/runtime. */
  runtimeDir: string;
  databaseKind: 'pglite' | 'postgres';
  allowedOrigins: string[];
  dockerTlsRoots: string[];
  workspaceRoots: string[];
  gatewayRoots: string[];
  dnsUpstreams: string[] | null;
}

const pathList = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => path.resolve(/*turbopackIgnore: true*/ s));

const UPSTREAM = /^(?:\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?|\[[0-9a-fA-F:]{2,39}\](?::\d{1,5})?)$/;

function parseUpstreams(v: string): string[] {
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const u of list)
    if (!UPSTREAM.test(u)) throw new Error(`Invalid configuration:\n  SKILLDOCK_DNS_UPSTREAMS: ${JSON.stringify(u)} is not ip, ip:port or [ipv6]:port`);
  return list;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.SKILLDOCK_DATA_DIR);
  return {
    ...e,
    dataDir,
    pgliteDir: path.join(dataDir, 'pglite'),
    runtimeDir: path.resolve(/*turbopackIgnore: true*/ e.RUNTIME_DIR ?? path.join(dataDir, 'runtime')),
    databaseKind: e.DATABASE_URL ? 'postgres' : 'pglite',
    dockerTlsRoots: e.SKILLDOCK_DOCKER_TLS_ROOTS ? pathList(e.SKILLDOCK_DOCKER_TLS_ROOTS) : [path.join(dataDir, 'docker-certs')],
    workspaceRoots: pathList(e.SKILLDOCK_WORKSPACE_ROOTS),
    gatewayRoots: pathList(e.SKILLDOCK_GATEWAY_ROOTS),
    dnsUpstreams: e.SKILLDOCK_DNS_UPSTREAMS ? parseUpstreams(e.SKILLDOCK_DNS_UPSTREAMS) : null,
    allowedOrigins: (e.SKILLDOCK_ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
}
