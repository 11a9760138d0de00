import type { Config } from '../core/config';
import { logger } from '../core/logger';

type UrlConfig = Pick<Config, 'PORT' | 'SKILLDOCK_PUBLIC_URL'>;

/** The console's external origin: SKILLDOCK_PUBLIC_URL, or http://localhost:$PORT when unset. */
export function publicOrigin(config: UrlConfig): string {
  return config.SKILLDOCK_PUBLIC_URL ? new URL(config.SKILLDOCK_PUBLIC_URL).origin : `http://localhost:${config.PORT}`;
}

const hostOf = (origin: string) => new URL(origin).host.toLowerCase();

/**
 * When a request came in under another host than the public URL's (opened as 127.0.0.1 while the
 * public URL says localhost, or by a LAN name), the two hosts; otherwise null.
 */
export function hostMismatch(requestHost: string | null | undefined, config: UrlConfig): { used: string; configured: string } | null {
  if (!requestHost) return null;
  const configured = publicOrigin(config);
  let used: string;
  try {
    used = new URL(`http://${requestHost}`).host.toLowerCase();
  } catch {
    return null;
  }
  const expected = hostOf(configured);
  return used === expected ? null : { used, configured };
}

/** Boot-time warning: listening on every interface with no SKILLDOCK_PUBLIC_URL set. */
export function publicUrlBootWarning(config: UrlConfig & Pick<Config, 'HOST'>): string | null {
  if (config.SKILLDOCK_PUBLIC_URL) return null;
  if (!['0.0.0.0', '::', '[::]'].includes(config.HOST)) return null;
  return `SKILLDOCK_PUBLIC_URL is not set: the console assumes ${publicOrigin(config)}. If operators open it by another name (an IP address, a LAN name, a proxy), set SKILLDOCK_PUBLIC_URL to that address.`;
}

// process-wide: a warn-once flag for the log, no service data
let warned = false;

/** Logs the first request under a host that is not the public URL's, once per process. */
export function warnHostMismatchOnce(requestHost: string | null | undefined, config: UrlConfig): ReturnType<typeof hostMismatch> {
  const m = hostMismatch(requestHost, config);
  if (m && !warned) {
    warned = true;
    logger.warn(`The console was opened as ${m.used}, but its public URL is ${m.configured}; set SKILLDOCK_PUBLIC_URL to the address operators use.`, {
      host: m.used,
      publicUrl: m.configured,
    });
  }
  return m;
}
