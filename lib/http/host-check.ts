import type { Config } from '../core/config';

/** The Host values this server answers to: exact host:port pairs, and names allowed on any port. */
export interface HostPolicy {
  exact: Set<string>;
  anyPort: Set<string>;
}

const norm = (h: string) => h.trim().toLowerCase().replace(/\.$/, '');

/** Splits "name:port", "[v6]:port", "name" into host and port. */
function split(h: string): { host: string; port: string | null } {
  const v = norm(h);
  const v6 = /^(\[[^\]]+\])(?::(\d+))?$/.exec(v);
  if (v6) return { host: v6[1], port: v6[2] ?? null };
  const i = v.lastIndexOf(':');
  if (i > 0 && /^\d+$/.test(v.slice(i + 1))) return { host: v.slice(0, i), port: v.slice(i + 1) };
  return { host: v, port: null };
}

/**
 * The public URL's host, loopback names on the listening port, the bind address when it is a
 * specific one, and SKILLDOCK_ALLOWED_HOSTS (an entry without a port allows every port).
 */
export function hostPolicy(config: Pick<Config, 'PORT' | 'HOST' | 'SKILLDOCK_PUBLIC_URL' | 'SKILLDOCK_ALLOWED_HOSTS'>): HostPolicy {
  const exact = new Set<string>();
  const anyPort = new Set<string>();
  for (const h of ['localhost', '127.0.0.1', '[::1]']) exact.add(`${h}:${config.PORT}`);
  if (config.HOST && !['0.0.0.0', '::', '[::]'].includes(config.HOST)) {
    const bind = config.HOST.includes(':') && !config.HOST.startsWith('[') ? `[${config.HOST}]` : config.HOST;
    exact.add(norm(`${bind}:${config.PORT}`));
  }
  if (config.SKILLDOCK_PUBLIC_URL) {
    const u = new URL(config.SKILLDOCK_PUBLIC_URL);
    exact.add(norm(u.host));
    // A proxy may pass the default port explicitly.
    if (!u.port) exact.add(norm(`${u.hostname}:${u.protocol === 'https:' ? 443 : 80}`));
  }
  for (const entry of (config.SKILLDOCK_ALLOWED_HOSTS ?? '').split(',')) {
    if (!entry.trim()) continue;
    const { host, port } = split(entry);
    if (port) exact.add(`${host}:${port}`);
    else anyPort.add(host);
  }
  return { exact, anyPort };
}

export function hostAllowed(host: string | string[] | undefined, policy: HostPolicy): boolean {
  if (typeof host !== 'string' || !host || host.length > 300) return false;
  const v = norm(host);
  if (policy.exact.has(v)) return true;
  const { host: name, port } = split(v);
  // HTTP/1.0 clients may omit the port; the default port then is implied.
  if (!port && policy.exact.has(`${name}:80`)) return true;
  return policy.anyPort.has(name);
}

/** The answer to a request for a Host this server does not serve (a DNS-rebinding page, or a wrong name). */
export function hostRefusal(host: string | string[] | undefined): { status: 403; body: string } {
  const shown = typeof host === 'string' ? host.slice(0, 100) : '(none)';
  const message = `This server does not answer to the host "${shown}". Use the address in SKILLDOCK_PUBLIC_URL, or add the name to SKILLDOCK_ALLOWED_HOSTS.`;
  return { status: 403, body: JSON.stringify({ error: { code: 'host_not_allowed', message } }) };
}
