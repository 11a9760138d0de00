// Outdated check latency for 200 npm packages. A temp runtime npm prefix holds 200 real package names
// (leaf packages of package-lock.json), each as a package.json at version 0.0.1, so most are outdated.
// (a) a cold check against the real registry with a fresh cache, (b) a second check reusing that
// cache (ETags → If-None-Match → 304), (c) the same two runs against a loopback server that serves
// the packuments fetched in (a) with strong ETags and answers If-None-Match with 304.
// Traffic goes only to the npm registry and to 127.0.0.1.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureRuntimeDir } from '../lib/runtime/dir';
import { NPM_NAME } from '../lib/runtime/managers/npm/metadata';
import { createNpmRegistryCache, type NpmRegistryCache, npmOutdated } from '../lib/runtime/managers/npm/registry';
import type { ManagerContext } from '../lib/runtime/types';
import { fmt, ROOT } from './common';

export interface OutdatedRun {
  ms: number;
  /** Registry requests and their answers, as counted by the cache and by a wrapper around fetch. */
  requests: number;
  notModified: number;
  fetched: number;
  errors: number;
  outdated: number;
  /** Response bytes after decompression (what the JSON parser saw). */
  bodyBytes: number;
  /** Packuments that came with an ETag header. */
  withEtag: number;
}

export interface NpmOutdatedBench {
  packages: number;
  concurrency: number;
  registry: { url: string; cold: OutdatedRun; cached: OutdatedRun; ratio: number };
  loopback: { runs: number; cold: OutdatedRun; cached: OutdatedRun; coldRunsMs: number[]; cachedRunsMs: number[]; ratio: number };
}

// Packages whose packuments run to megabytes (canary streams, thousands of versions): not "small".
const HUGE =
  /^(@next\/|@rolldown\/|@tailwindcss\/|@types\/node$|@electric-sql\/|caniuse-lite$|typescript$|react$|react-is$|scheduler$|playwright-core$|tailwindcss$|undici-types$|baseline-browser-mapping$|vue-component-type-helpers$|electron-to-chromium$)/;

/** Real registry packages from package-lock.json: leaves (no dependencies), not aliases or links, sorted by name. */
export function lockPackageNames(count: number): string[] {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<
      string,
      { link?: boolean; integrity?: string; name?: string; dependencies?: object; optionalDependencies?: object; peerDependencies?: object }
    >;
  };
  const names = new Set<string>();
  for (const [key, v] of Object.entries(lock.packages)) {
    const at = key.lastIndexOf('node_modules/');
    if (at < 0 || v.link || !v.integrity) continue;
    const name = key.slice(at + 'node_modules/'.length);
    if ((v.name && v.name !== name) || v.dependencies || v.optionalDependencies || v.peerDependencies) continue;
    if (NPM_NAME.test(name) && !HUGE.test(name)) names.add(name);
  }
  const picked = [...names].sort().slice(0, count);
  if (picked.length < count) throw new Error(`package-lock.json has only ${picked.length} suitable packages, wanted ${count}`);
  return picked;
}

/** Records every answer (for the loopback server and the counts) and hands npmOutdated an equivalent Response. */
function recordingFetch(
  saved: Map<string, { body: Buffer; contentType: string }> | null,
  tally: { bodyBytes: number; withEtag: number; status: Map<number, number> },
): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    tally.status.set(res.status, (tally.status.get(res.status) ?? 0) + 1);
    if (res.headers.get('etag')) tally.withEtag++;
    if (res.status === 304 || res.status === 204) return res;
    const body = Buffer.from(await res.arrayBuffer());
    tally.bodyBytes += body.length;
    if (saved && res.ok) saved.set(new URL(res.url || String(input)).pathname, { body, contentType: res.headers.get('content-type') ?? 'application/json' });
    const headers = new Headers(res.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    return new Response(body, { status: res.status, statusText: res.statusText, headers });
  };
}

async function timedCheck(
  ctx: ManagerContext,
  cache: NpmRegistryCache,
  concurrency: number,
  saved: Map<string, { body: Buffer; contentType: string }> | null,
): Promise<OutdatedRun> {
  const before = { ...cache.stats };
  const tally = { bodyBytes: 0, withEtag: 0, status: new Map<number, number>() };
  const t0 = performance.now();
  const r = await npmOutdated(ctx, undefined, { cache, concurrency, fetch: recordingFetch(saved, tally), timeoutMs: 30_000 });
  const ms = performance.now() - t0;
  if (r.errors.length)
    console.log(
      `  ${r.errors.length} errors, e.g. ${r.errors
        .slice(0, 3)
        .map((e) => `${e.name}: ${e.message}`)
        .join('; ')}`,
    );
  return {
    ms,
    requests: cache.stats.requests - before.requests,
    notModified: cache.stats.notModified - before.notModified,
    fetched: cache.stats.fetched - before.fetched,
    errors: cache.stats.errors - before.errors,
    outdated: r.outdated.length,
    bodyBytes: tally.bodyBytes,
    withEtag: tally.withEtag,
  };
}

/** Serves the saved packuments by path, each with a strong ETag (sha256 of the body); If-None-Match → 304. */
async function startLoopbackRegistry(saved: Map<string, { body: Buffer; contentType: string }>) {
  const docs = new Map([...saved].map(([p, d]) => [p, { ...d, etag: `"${crypto.createHash('sha256').update(d.body).digest('base64url')}"` }]));
  const stats = { requests: 0, notModified: 0 };
  const server = http.createServer((req, res) => {
    stats.requests++;
    const doc = req.method === 'GET' ? docs.get(new URL(req.url ?? '/', 'http://x').pathname) : undefined;
    if (!doc) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      return;
    }
    const inm = req.headers['if-none-match'];
    if (inm?.split(',').some((t) => t.trim() === doc.etag)) {
      stats.notModified++;
      res.writeHead(304, { etag: doc.etag }).end();
      return;
    }
    res.writeHead(200, { 'content-type': doc.contentType, 'content-length': doc.body.length, etag: doc.etag }).end(doc.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, stats, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function npmOutdatedBench(count = 200, concurrency = 8, loopbackRuns = 5): Promise<NpmOutdatedBench> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-bench-outdated-'));
  try {
    const layout = ensureRuntimeDir(root);
    const names = lockPackageNames(count);
    for (const name of names) {
      const dir = path.join(layout.npmModules, name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '0.0.1' }, null, 2) + '\n');
    }

    // (a) and (b): the real registry (the default, https://registry.npmjs.org/).
    const ctx: ManagerContext = { runtimeDir: root };
    const saved = new Map<string, { body: Buffer; contentType: string }>();
    const cache = createNpmRegistryCache();
    const cold = await timedCheck(ctx, cache, concurrency, saved);
    if (cold.requests !== count) throw new Error(`the cold check made ${cold.requests} requests, expected ${count}`);
    if (saved.size !== count) throw new Error(`only ${saved.size} of ${count} packuments were fetched from the registry`);
    const cached = await timedCheck(ctx, cache, concurrency, null);

    // (c): the same packuments from loopback, with strong ETags.
    const server = await startLoopbackRegistry(saved);
    try {
      const lctx: ManagerContext = { runtimeDir: root, settings: { npmRegistry: server.url } };
      const pair = async () => {
        const c = createNpmRegistryCache();
        const first = await timedCheck(lctx, c, concurrency, null);
        const second = await timedCheck(lctx, c, concurrency, null);
        if (first.fetched !== count || second.notModified !== count)
          throw new Error(`loopback: ${first.fetched} fetched cold, ${second.notModified} 304s cached; expected ${count} each`);
        return [first, second] as const;
      };
      await pair(); // warm-up: connections, JIT
      const pairs: (readonly [OutdatedRun, OutdatedRun])[] = [];
      for (let i = 0; i < loopbackRuns; i++) pairs.push(await pair());
      const coldRunsMs = pairs.map((p) => p[0].ms);
      const cachedRunsMs = pairs.map((p) => p[1].ms);
      const lcold = { ...pairs[0][0], ms: median(coldRunsMs) };
      const lcached = { ...pairs[0][1], ms: median(cachedRunsMs) };
      return {
        packages: count,
        concurrency,
        registry: { url: 'https://registry.npmjs.org/', cold, cached, ratio: cached.ms / cold.ms },
        loopback: { runs: loopbackRuns, cold: lcold, cached: lcached, coldRunsMs, cachedRunsMs, ratio: lcached.ms / lcold.ms },
      };
    } finally {
      await server.close();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export function describeOutdated(r: OutdatedRun): string {
  return `${fmt(r.ms, 0)} ms, ${r.requests} requests, ${r.fetched} × 200, ${r.notModified} × 304, ${r.errors} errors, ${(r.bodyBytes / 1e6).toFixed(2)} MB of packuments, ${r.withEtag} with an ETag, ${r.outdated} outdated`;
}
