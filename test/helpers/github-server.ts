// A loopback stand-in for the GitHub REST API and its download host, serving release JSON in the
// API's shape and real archives (made with the real tar) holding real ELF binaries of this machine.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface FakeAsset {
  name: string;
  data: Buffer;
  /** Publish the API `digest` (sha256) as newer releases do. */
  digest?: boolean;
  /**
   * A download fault (the release JSON still declares the full size):
   * `short-body` sends the first half with a Content-Length of that half;
   * `close-early` declares the full Content-Length, sends half, then destroys the socket.
   */
  fault?: 'short-body' | 'close-early' | 'stall';
  /** A private-repository asset: its browser_download_url answers 404, only the asset API URL (with the token) serves it. */
  private?: boolean;
  /** A download held in flight: the first half is sent at once, the rest when this settles. */
  gate?: Promise<unknown>;
}
export interface FakeRelease {
  tag: string;
  prerelease?: boolean;
  draft?: boolean;
  publishedAt?: string;
  assets: FakeAsset[];
}

/** A tar.gz made by the real tar: `<dir>/<binary>` copied from a real program, plus a README. */
export function tarGzWith(dir: string, files: Record<string, string | Buffer>, opts: { exec?: string[] } = {}): Buffer {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-gh-tar-'));
  try {
    for (const [name, content] of Object.entries(files)) {
      const p = path.join(work, dir, name);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
      fs.chmodSync(p, opts.exec?.includes(name) ? 0o755 : 0o644);
    }
    execFileSync('tar', ['-czf', path.join(work, 'out.tgz'), '-C', work, dir]);
    return fs.readFileSync(path.join(work, 'out.tgz'));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

// GitHub computes an asset's digest once, at upload: the fake does too, or every release answer
// would hash each asset again in the test's own process (seconds for a large one).
const assetDigests = new WeakMap<Buffer, string>();
const assetSha256 = (b: Buffer) => {
  let d = assetDigests.get(b);
  if (d === undefined) assetDigests.set(b, (d = sha256(b)));
  return d;
};

export interface FakeGithubOptions {
  /**
   * Serve asset downloads from a second loopback server reached under this host name (e.g.
   * `localhost`, which must resolve to 127.0.0.1): the API host answers each download URL with a
   * 302 to `http://<downloadHost>:<second port>/…`, as GitHub redirects to its objects host.
   */
  downloadHost?: string;
}

/** Rate-limit answers of the API host: `reset` = 403 with x-ratelimit-remaining 0 and a reset an hour away; `retry-after` = 403 with retry-after 3600. */
export type FakeRateLimit = 'reset' | 'retry-after';

export class FakeGithub {
  readonly releases = new Map<string, FakeRelease[]>();
  /** Every request to either server; `host` is the Host header (API host or download host). */
  readonly requests: { path: string; auth?: string; ifNoneMatch?: string; host?: string }[] = [];
  /** When set, every API request (`/repos/…`) is answered with a rate-limit 403. */
  rateLimit: FakeRateLimit | null = null;
  private server!: http.Server;
  private downloadServer: http.Server | null = null;
  base = '';
  /** `http://<downloadHost>:<port>` of the second server; '' without `downloadHost`. */
  downloadBase = '';

  constructor(readonly options: FakeGithubOptions = {}) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    if (this.options.downloadHost) {
      const dl = http.createServer((req, res) => this.handleDownloadHost(req, res));
      await new Promise<void>((r) => dl.listen(0, '127.0.0.1', r));
      this.downloadServer = dl;
      this.downloadBase = `http://${this.options.downloadHost}:${(dl.address() as AddressInfo).port}`;
    }
    return this;
  }
  stop(): Promise<void> {
    const close = (s: http.Server) =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      });
    return Promise.all([close(this.server), ...(this.downloadServer ? [close(this.downloadServer)] : [])]).then(() => undefined);
  }

  private record(req: http.IncomingMessage, url: URL): void {
    this.requests.push({
      path: url.pathname + url.search,
      auth: req.headers.authorization,
      ifNoneMatch: req.headers['if-none-match'] as string | undefined,
      host: req.headers.host,
    });
  }

  private findAsset(repo: string, tag: string, name: string): FakeAsset | undefined {
    return this.releases
      .get(repo)
      ?.find((r) => r.tag === tag)
      ?.assets.find((a) => a.name === name);
  }

  private findAssetById(repo: string, id: number): { tag: string; asset: FakeAsset } | undefined {
    const i = Math.floor(id / 1000) - 1;
    const r = this.releases.get(repo)?.[i];
    const asset = r?.assets[id % 1000];
    return r && asset ? { tag: r.tag, asset } : undefined;
  }

  /** Sends an asset's bytes, or its fault. */
  private serveAsset(asset: FakeAsset, res: http.ServerResponse): void {
    const half = asset.data.subarray(0, Math.floor(asset.data.length / 2));
    if (asset.fault === 'short-body')
      return void res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(half.length) }).end(half);
    if (asset.fault === 'stall') {
      // Half the bytes, then nothing: the client's stall timeout has to end it.
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(asset.data.length) });
      res.write(half);
      return;
    }
    if (asset.gate) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(asset.data.length) });
      res.write(half);
      void asset.gate.then(() => res.end(asset.data.subarray(half.length)));
      return;
    }
    if (asset.fault === 'close-early') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(asset.data.length) });
      res.write(half, () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(asset.data.length) }).end(asset.data);
  }

  /** Sends the asset itself, or a 302 to the download host when one is configured. */
  private download(repo: string, tag: string, asset: FakeAsset, res: http.ServerResponse): void {
    if (!this.downloadBase) return this.serveAsset(asset, res);
    const location = `${this.downloadBase}/dl/${repo}/${encodeURIComponent(tag)}/${encodeURIComponent(asset.name)}?token=signed-${assetSha256(asset.data).slice(0, 8)}`;
    res.writeHead(302, { location }).end();
  }

  private handleDownloadHost(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', this.downloadBase);
    this.record(req, url);
    const m = /^\/dl\/([^/]+\/[^/]+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    const asset = m ? this.findAsset(m[1], decodeURIComponent(m[2]), decodeURIComponent(m[3])) : undefined;
    if (!asset) return void res.writeHead(404).end('Not Found');
    this.serveAsset(asset, res);
  }

  private releaseJson(repo: string, r: FakeRelease, i: number) {
    return {
      id: 100 + i,
      tag_name: r.tag,
      name: r.tag,
      draft: !!r.draft,
      prerelease: !!r.prerelease,
      created_at: r.publishedAt ?? `2026-0${1 + (i % 9)}-01T00:00:00Z`,
      published_at: r.publishedAt ?? `2026-0${1 + (i % 9)}-01T00:00:00Z`,
      assets: r.assets.map((a, j) => ({
        id: 1000 * (i + 1) + j,
        name: a.name,
        size: a.data.length,
        state: 'uploaded',
        content_type: 'application/octet-stream',
        browser_download_url: `${this.base}/${repo}/releases/download/${encodeURIComponent(r.tag)}/${encodeURIComponent(a.name)}`,
        url: `${this.base}/repos/${repo}/releases/assets/${1000 * (i + 1) + j}`,
        digest: a.digest ? `sha256:${assetSha256(a.data)}` : null,
      })),
    };
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', this.base);
    this.record(req, url);
    const json = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      const etag = `"${sha256(text).slice(0, 16)}"`;
      if (status === 200 && req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      res
        .writeHead(status, {
          'content-type': 'application/json',
          etag,
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': '42',
          'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
          'x-ratelimit-resource': 'core',
        })
        .end(text);
    };
    if (this.rateLimit && url.pathname.startsWith('/repos/')) {
      const reset = String(Math.floor(Date.now() / 1000) + 3600);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-used': '60',
        'x-ratelimit-reset': reset,
        'x-ratelimit-resource': 'core',
      };
      if (this.rateLimit === 'retry-after') Object.assign(headers, { 'retry-after': '3600', 'x-ratelimit-remaining': '4000', 'x-ratelimit-limit': '5000' });
      return void res
        .writeHead(403, headers)
        .end(JSON.stringify({ message: this.rateLimit === 'reset' ? 'API rate limit exceeded' : 'You have exceeded a secondary rate limit.' }));
    }
    let m = /^\/repos\/([^/]+\/[^/]+)\/releases\/assets\/(\d+)$/.exec(url.pathname);
    if (m) {
      // The asset API URL (private repositories): JSON, or the bytes when asked for application/octet-stream.
      const found = this.findAssetById(m[1], Number(m[2]));
      if (!found) return json(404, { message: 'Not Found' });
      if (req.headers.accept !== 'application/octet-stream') return json(200, { id: Number(m[2]), name: found.asset.name, size: found.asset.data.length });
      return this.download(m[1], found.tag, found.asset, res);
    }
    m = /^\/repos\/([^/]+\/[^/]+)\/releases(\/latest|\/tags\/(.+))?$/.exec(url.pathname);
    if (m) {
      const repo = m[1];
      const list = (this.releases.get(repo) ?? []).map((r, i) => [r, i] as const);
      if (!this.releases.has(repo)) return json(404, { message: 'Not Found' });
      if (m[2] === '/latest') {
        const found = list.find(([r]) => !r.draft && !r.prerelease);
        return found ? json(200, this.releaseJson(repo, found[0], found[1])) : json(404, { message: 'Not Found' });
      }
      if (m[3]) {
        const found = list.find(([r]) => r.tag === decodeURIComponent(m![3]));
        return found ? json(200, this.releaseJson(repo, found[0], found[1])) : json(404, { message: 'Not Found' });
      }
      return json(
        200,
        list.map(([r, i]) => this.releaseJson(repo, r, i)),
      );
    }
    m = /^\/([^/]+\/[^/]+)\/releases\/download\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (m) {
      const asset = this.findAsset(m[1], decodeURIComponent(m[2]), decodeURIComponent(m[3]));
      if (!asset || asset.private) return void res.writeHead(404).end('Not Found');
      return this.download(m[1], decodeURIComponent(m[2]), asset, res);
    }
    res.writeHead(404).end('Not Found');
  }
}
