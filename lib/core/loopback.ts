/** Loopback host names and addresses. No Node imports: the Settings form in the browser uses it too. */

/** `localhost`, `*.localhost`, 127.0.0.0/8 and ::1 (brackets allowed, as URL.hostname gives IPv6). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/** A secret may travel to this URL: HTTPS, or plain HTTP to a loopback host (a local test server). */
export function secretMayTravelTo(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}
