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

export class FakeGithub {
  readonly releases = new Map<string, FakeRelease[]>();
  readonly requests: { path: string; auth?: string; ifNoneMatch?: string }[] = [];
  private server!: http.Server;
  base = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }
  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
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
        digest: a.digest ? `sha256:${sha256(a.data)}` : null,
      })),
    };
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', this.base);
    this.requests.push({ path: url.pathname + url.search, auth: req.headers.authorization, ifNoneMatch: req.headers['if-none-match'] as string | undefined });
    const json = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      const etag = `"${sha256(text).slice(0, 16)}"`;
      if (status === 200 && req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      res.writeHead(status, { 'content-type': 'application/json', etag, 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '42', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600), 'x-ratelimit-resource': 'core' }).end(text);
    };
    let m = /^\/repos\/([^/]+\/[^/]+)\/releases(\/latest|\/tags\/(.+))?$/.exec(url.pathname);
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
      return json(200, list.map(([r, i]) => this.releaseJson(repo, r, i)));
    }
    m = /^\/([^/]+\/[^/]+)\/releases\/download\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (m) {
      const asset = this.releases.get(m[1])?.find((r) => r.tag === decodeURIComponent(m![2]))?.assets.find((a) => a.name === decodeURIComponent(m![3]));
      if (!asset) return void res.writeHead(404).end('Not Found');
      return void res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(asset.data.length) }).end(asset.data);
    }
    res.writeHead(404).end('Not Found');
  }
}
