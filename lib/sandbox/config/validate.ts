// The checks of a config that need the server: where an endpoint resolves (the SSRF guard), and
// folders on this host (TLS certificates, workspace mounts) inside the allowed roots.
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError, type FieldIssue, hasCode } from '../../core/errors';
import { blockedRange, checkUrlTarget, type Resolver } from '../../skills/remote/ssrf';
import { type AnyConfig, type DockerConfig, type E2bConfig, parseDockerHost, type SandboxBackend } from './schema';

export interface ValidateContext {
  /** Folders a TLS certificate directory must be inside. */
  tlsRoots: readonly string[];
  /** Host folders a workspace mount must be inside; empty refuses every mount. */
  workspaceRoots: readonly string[];
  resolve?: Resolver;
}

/** Ranges `allowPrivateEndpoints` opens; link-local (metadata) and the rest stay refused. */
// process-wide: a constant table, never written
const PRIVATE_OK = new Set(['private', 'loopback', 'uniqueLocal', 'ipv4Mapped:private', 'ipv4Mapped:loopback']);
// process-wide: a constant table, never written
const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

/** Why Skilldock must not dial host:port, or null. DNS is resolved once, by the guard. */
export async function endpointProblem(host: string, port: number, allowPrivate: boolean, resolve?: Resolver): Promise<string | null> {
  const literal = host.includes(':') ? `[${host}]` : host;
  let addresses: string[];
  try {
    const t = await checkUrlTarget(`http://${literal}:${port}/`, { allowedHosts: allowPrivate ? [`${literal}:${port}`] : [] }, resolve);
    addresses = t.addresses;
  } catch (e) {
    if (hasCode(e, 'ssrf_blocked'))
      return `${e.message} Turn on "allow private endpoints" for a private or loopback engine; link-local and metadata addresses are always refused.`;
    return e instanceof Error ? e.message : String(e);
  }
  for (const a of addresses) {
    const range = blockedRange(a);
    if (METADATA.has(a.toLowerCase()) || (range && !PRIVATE_OK.has(range)))
      return `Refused ${host}: it resolves to ${a} (${range ?? 'metadata'}), which Skilldock never dials.`;
  }
  return null;
}

const inside = (child: string, root: string) => child === root || child.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

async function canonicalRoots(roots: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const r of roots) {
    const real = await realpath(r).catch(() => null);
    if (real) out.push(real);
  }
  return out;
}

/** The canonical folder, when it exists and resolves inside one of the roots; else why not. */
async function folderProblem(p: string, roots: readonly string[], what: string): Promise<string | null> {
  const real = await realpath(p).catch(() => null);
  if (!real) return `${what} ${p} does not exist on this host.`;
  const st = await stat(real).catch(() => null);
  if (!st?.isDirectory()) return `${what} ${p} is not a folder.`;
  const canon = await canonicalRoots(roots);
  if (!canon.length) return `No allowed roots are configured for ${what.toLowerCase()}s; set them on the server first.`;
  if (!canon.some((r) => inside(real, r))) return `${what} ${p} resolves to ${real}, outside the allowed roots (${canon.join(', ')}).`;
  return null;
}

async function dockerIssues(c: DockerConfig, ctx: ValidateContext, issues: FieldIssue[]): Promise<void> {
  const host = c.host ? parseDockerHost(c.host) : null;
  if (host?.kind === 'tcp') {
    if (!c.tlsCertPath) issues.push({ path: 'config.tlsCertPath', message: 'A tcp:// engine needs a TLS certificate folder (ca.pem, cert.pem, key.pem).' });
    const p = await endpointProblem(host.host, host.port, c.allowPrivateEndpoints, ctx.resolve);
    if (p) issues.push({ path: 'config.host', message: p });
  }
  if (c.tlsCertPath) {
    const p = await folderProblem(c.tlsCertPath, ctx.tlsRoots, 'The TLS folder');
    if (p) issues.push({ path: 'config.tlsCertPath', message: p });
    else {
      const dir = await realpath(c.tlsCertPath);
      for (const f of ['ca.pem', 'cert.pem', 'key.pem']) {
        const st = await stat(path.join(/*turbopackIgnore: true*/ dir, f)).catch(() => null);
        if (!st?.isFile()) issues.push({ path: 'config.tlsCertPath', message: `${f} is missing from ${c.tlsCertPath}.` });
      }
    }
  }
  if (c.workspaceMount) {
    const p = await folderProblem(c.workspaceMount, ctx.workspaceRoots, 'The workspace mount');
    if (p) issues.push({ path: 'config.workspaceMount', message: p });
  }
}

async function remoteIssues(c: E2bConfig, ctx: ValidateContext, issues: FieldIssue[]): Promise<void> {
  for (const field of ['apiUrl', 'proxyUrl'] as const) {
    if (!c[field]) continue;
    const u = new URL(c[field]);
    const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
    const p = await endpointProblem(u.hostname.replace(/^\[|\]$/g, ''), port, c.allowPrivateEndpoints, ctx.resolve);
    if (p) issues.push({ path: `config.${field}`, message: p });
  }
}

/** Throws one AppError with every field issue (ssrf_blocked when an endpoint was refused). */
export async function validateOnServer(backend: SandboxBackend, config: AnyConfig, ctx: ValidateContext): Promise<void> {
  const issues: FieldIssue[] = [];
  if (backend === 'docker') await dockerIssues(config as DockerConfig, ctx, issues);
  else await remoteIssues(config as E2bConfig, ctx, issues);
  if (!issues.length) return;
  const ssrf = issues.some((i) => i.path === 'config.host' || i.path === 'config.apiUrl' || i.path === 'config.proxyUrl');
  throw new AppError(ssrf ? 'ssrf_blocked' : 'validation', issues[0].message, { issues });
}
