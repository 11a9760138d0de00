/**
 * Test tripwire: records every outgoing TCP connect of this process and refuses, before any packet
 * is sent, those whose target is not loopback: IP literals are judged directly, host names through
 * a wrapper around the lookup the socket would use. SSRF tests use it to prove that a blocked
 * address was never contacted, and as a safety net should the guard ever regress.
 */
import dns from 'node:dns';
import net from 'node:net';

export interface ConnectAttempt {
  host: string;
  port: number;
  /** The address a host name resolved to (absent for IP literals). */
  address?: string;
}

const isLoopback = (ip: string) => ip === '::1' || ip === '::ffff:127.0.0.1' || /^127\./.test(ip);

type LookupCb = (err: Error | null, address?: unknown, family?: number) => void;
type Lookup = (host: string, opts: object, cb: LookupCb) => void;

export function installConnectTripwire(): { attempts: ConnectAttempt[]; refused: ConnectAttempt[]; restore: () => void } {
  const original = net.Socket.prototype.connect;
  const attempts: ConnectAttempt[] = [];
  const refused: ConnectAttempt[] = [];
  net.Socket.prototype.connect = function patched(this: net.Socket, ...args: unknown[]) {
    const normalised = Array.isArray(args[0]) ? (args[0] as unknown[]) : null;
    const first = normalised ? normalised[0] : args[0];
    if (first && typeof first === 'object' && !(first as { path?: string }).path) {
      const opts = { ...(first as { host?: string; port?: number; lookup?: Lookup }) };
      const attempt: ConnectAttempt = { host: String(opts.host ?? 'localhost').replace(/^\[|\]$/g, ''), port: Number(opts.port) };
      attempts.push(attempt);
      if (net.isIP(attempt.host)) {
        if (!isLoopback(attempt.host)) {
          refused.push(attempt);
          process.nextTick(() => this.destroy(new Error(`tripwire: refused connect to ${attempt.host}:${attempt.port}`)));
          return this;
        }
      } else {
        const inner: Lookup = opts.lookup ?? (dns.lookup as unknown as Lookup);
        opts.lookup = (host, lookupOpts, cb) =>
          inner(host, lookupOpts, (err, address, family) => {
            if (err) return cb(err);
            const list = Array.isArray(address) ? (address as { address: string }[]).map((a) => a.address) : [String(address)];
            attempt.address = list[0];
            if (!list.every(isLoopback)) {
              refused.push(attempt);
              return cb(new Error(`tripwire: refused connect to ${host} (${list.join(', ')})`));
            }
            cb(null, address, family);
          });
      }
      if (normalised) normalised[0] = opts;
      else args[0] = opts;
    }
    return (original as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof original;
  return { attempts, refused, restore: () => void (net.Socket.prototype.connect = original) };
}
