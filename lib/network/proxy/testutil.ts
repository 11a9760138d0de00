// Clients and fixtures for the egress proxy tests: requests through a proxy on loopback and a
// throwaway self-signed certificate.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

/** A P-256 key and certificate for `cn`, made by openssl in `dir`. */
export async function selfSignedCert(dir: string, cn: string): Promise<{ key: Buffer; cert: Buffer }> {
  await promisify(execFile)(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      'key.pem',
      '-out',
      'cert.pem',
      '-days',
      '1',
      '-subj',
      `/CN=${cn}`,
    ],
    { cwd: dir, timeout: 30_000 },
  );
  return { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) };
}

export interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}
export const collect = (res: http.IncomingMessage) =>
  new Promise<Got>((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    res.on('error', reject);
  });

export function requestVia(proxyPort: number, host: string, urlPath = '/', opts: { method?: string; body?: Buffer } = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort, path: urlPath, method: opts.method ?? 'GET', headers: { host }, agent: false }, (res) =>
      collect(res).then(resolve, reject),
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

export function connectVia(
  proxyPort: number,
  target: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; socket: net.Socket; body?: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort, method: 'CONNECT', path: target, agent: false });
    // Node reports every answer to a CONNECT as 'connect'; a refusal's body follows on the socket.
    req.on('connect', async (res, socket, head) => {
      const status = res.statusCode ?? 0;
      if (status === 200) return resolve({ status, headers: res.headers, socket });
      const chunks: Buffer[] = [head];
      for await (const c of socket) chunks.push(c as Buffer);
      resolve({ status, headers: res.headers, socket, body: Buffer.concat(chunks) });
    });
    req.on('error', reject);
    req.end();
  });
}
