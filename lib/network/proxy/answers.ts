// What the egress proxy answers instead of a tunnel: an HTTP status with a reason, or a TLS alert.

/** A fatal TLS alert record, access_denied (49): the client reports a refusal, not a reset. */
export const TLS_ACCESS_DENIED = Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x31]);

export function answer(status: string, rule: string, proxyError: string): string {
  const body = rule.replace(/[\r\n]+/g, ' ') + '\n';
  return (
    `HTTP/1.1 ${status}\r\nX-Proxy-Error: ${proxyError}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}
