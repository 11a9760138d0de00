// How one E2B-protocol client reaches E2B (cloud or self-hosted) and CubeSandbox, and what each of
// the two can do. Cube speaks the same control plane and envd, but its proxy routes by Host only,
// it has no network update route, and its egress rules are CIDRs only.
import type { BackendCapabilities } from '../backend';

export type E2bKind = 'e2b' | 'cube';

export interface E2bConfig {
  /** Control plane base URL, e.g. `https://api.e2b.app` or Cube's `http://node:3000`. */
  apiUrl: string;
  apiKey: string;
  /** Sandbox domain: envd is reached at `{port}-{sandboxId}.{domain}` (the create answer's `domain` wins). */
  domain: string;
  /** A data-plane gateway that routes by the sandbox `Host` header (CubeProxy, a self-hosted edge). */
  proxyUrl?: string;
  /** Template id sandboxes start from when a create names none. */
  template: string;
  /** PEM of the CA that signed a self-hosted gateway's or control plane's certificate. */
  caCert?: string;
  /** Accept any certificate (development gateways only). */
  skipTlsVerify?: boolean;
  /** Per HTTP call, when no tighter deadline applies. */
  requestTimeoutMs?: number;
  /** Sandbox lifetime asked of the control plane when a create names no idle TTL. */
  sandboxTtlSeconds?: number;
  /** The Linux user envd runs commands and file operations as (sent as `Authorization: Basic`). */
  user?: string;
}

export const ENVD_PORT = 49983;
export const DEFAULT_TTL_SECONDS = 300;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_USER = 'root';

/** Metadata key every Skilldock-created sandbox carries, so listings only show ours. */
export const MANAGED_KEY = 'skilldock.managed';

const CAPABILITIES: Record<E2bKind, BackendCapabilities> = {
  e2b: { networkUpdate: true, egressDomains: true, snapshots: true, tty: true, stats: false },
  cube: { networkUpdate: false, egressDomains: false, snapshots: false, tty: true, stats: false },
};

export function capabilitiesFor(kind: E2bKind): BackendCapabilities {
  return { ...CAPABILITIES[kind] };
}

/** The envd origin and the Host it must carry: direct `{port}-{id}.{domain}`, or the gateway keeping that Host. */
export function envdTarget(cfg: E2bConfig, sandboxId: string, domain = cfg.domain, port = ENVD_PORT): { origin: string; host: string } {
  const host = `${port}-${sandboxId}.${domain}`;
  if (cfg.proxyUrl) return { origin: new URL(cfg.proxyUrl).origin, host };
  return { origin: `https://${host}`, host };
}
