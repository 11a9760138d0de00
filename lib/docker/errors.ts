// Why an engine could not be reached, in words an operator can act on. Shared by the status probe
// and the sandbox backend so both explain a stopped daemon or a socket permission the same way.
import fs from 'node:fs';
import { AppError } from '@/lib/core/errors';

export interface EngineProblem {
  reason: string;
  hint?: string;
}

function socketPathOf(endpoint: string): string | undefined {
  if (endpoint.startsWith('unix://')) return endpoint.slice('unix://'.length);
  return endpoint.startsWith('/') ? endpoint : undefined;
}

function socketGroupHint(socketPath: string | undefined): string {
  if (!socketPath) return 'check the permissions of the engine endpoint';
  let gid: number | undefined;
  try {
    gid = fs.statSync(socketPath).gid;
  } catch {
    /* unreadable parent */
  }
  const groups = typeof process.getgroups === 'function' ? process.getgroups() : [];
  const who = typeof process.getuid === 'function' ? `uid ${process.getuid()} (groups ${groups.join(',') || 'none'})` : 'this process';
  if (gid === undefined) return `${who} cannot reach ${socketPath}: check its permissions`;
  return (
    `${socketPath} belongs to group id ${gid}, which ${who} lacks: add the service user to that group ` +
    `(\`usermod -aG <group> <user>\`, or \`group_add: ["${gid}"]\` in docker compose) and restart Skilldock. ` +
    'Docker Desktop on macOS mounts the socket as root:root 0660; run as root there or use a tcp:// endpoint with TLS.'
  );
}

/** The cause of a failed engine call, with a fix when the cause is a known one. */
export function describeEngineProblem(e: unknown, endpoint: string): EngineProblem {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT':
      return {
        reason: 'no Docker socket at this path (is the engine installed and running?)',
        hint: 'start the engine (`systemctl start docker`) or point the config at the socket it listens on',
      };
    case 'EACCES':
    case 'EPERM':
      return { reason: 'permission denied on the Docker socket', hint: socketGroupHint(socketPathOf(endpoint)) };
    case 'ECONNREFUSED':
      return { reason: 'connection refused (the engine is not running)', hint: 'start the engine, or check the host and port' };
    case 'ETIMEDOUT':
    case 'ESOCKETTIMEDOUT':
      return { reason: 'the engine did not answer in time', hint: 'check that the engine is not overloaded and the endpoint is right' };
    case 'ECONNRESET':
      return { reason: 'the engine closed the connection', hint: 'a tcp:// endpoint may expect TLS: check the certificate directory' };
    default:
      if (/certificate|SSL|TLS|self.signed/i.test(err?.message ?? '')) {
        return {
          reason: `TLS handshake failed: ${err.message}`,
          hint: 'the certificates must be signed by the CA the engine trusts (ca.pem, cert.pem, key.pem)',
        };
      }
      return { reason: err?.message ?? String(e) };
  }
}

/** An engine connection failure as the AppError the edge shows, with the fix. */
export function engineUnavailable(e: unknown, endpoint: string, code: 'unavailable' | 'sandbox_unreachable' = 'unavailable'): AppError {
  const p = describeEngineProblem(e, endpoint);
  return new AppError(code, `Docker engine at ${endpoint}: ${p.reason}`, {
    ...(p.hint ? { hint: p.hint } : {}),
    details: { endpoint },
    cause: e,
  });
}
