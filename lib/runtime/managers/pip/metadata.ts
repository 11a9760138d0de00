import fs from 'node:fs';
import path from 'node:path';
import { mapLimit } from '../../../core/concurrency';
import { normalizePipName } from '../../spec';

export interface PipMetadataHeaders {
  name?: string;
  version?: string;
  summary?: string;
}

const WANTED: Record<string, keyof PipMetadataHeaders> = { name: 'name', version: 'version', summary: 'summary' };

/**
 * Parses the RFC 822 style header block of a METADATA / PKG-INFO file: stops at the first blank
 * line (the long description follows it), joins folded continuation lines.
 */
export function parsePipMetadataHeaders(text: string): PipMetadataHeaders {
  const out: PipMetadataHeaders = {};
  let current: keyof PipMetadataHeaders | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line === '') break;
    if (/^[ \t]/.test(line)) {
      if (current && out[current] !== undefined) out[current] = `${out[current]} ${line.trim()}`.trim();
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) {
      current = undefined;
      continue;
    }
    const key = WANTED[line.slice(0, colon).trim().toLowerCase()];
    current = key && out[key] === undefined ? key : undefined;
    if (current) out[current] = line.slice(colon + 1).trim();
  }
  return out;
}

const CHUNK = 4096;
const MAX_HEADER_BYTES = 64 * 1024;

/** Reads only the header block of a metadata file (a few KB), never the long description. */
export async function readPipMetadataHeaders(file: string): Promise<PipMetadataHeaders | undefined> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < MAX_HEADER_BYTES) {
      const buf = Buffer.alloc(CHUNK);
      const { bytesRead } = await fh.read(buf, 0, CHUNK, total);
      if (bytesRead === 0) break;
      chunks.push(buf.subarray(0, bytesRead));
      total += bytesRead;
      const text = Buffer.concat(chunks).toString('utf8');
      if (/\r?\n\r?\n/.test(text)) return parsePipMetadataHeaders(text);
    }
    return parsePipMetadataHeaders(Buffer.concat(chunks).toString('utf8'));
  } finally {
    await fh.close();
  }
}

export interface PipDistribution {
  name: string;
  version: string;
  summary?: string;
  /** Absolute path of the `.dist-info` / `.egg-info` entry. */
  location: string;
}

/** `foo_bar-1.2.0.dist-info` → { name: 'foo_bar', version: '1.2.0' } (versions never contain `-`). */
export function splitPipDistInfoName(entry: string): { name: string; version: string } | undefined {
  const m = /^(.+)-([^-]+)\.(?:dist-info|egg-info)$/.exec(entry);
  return m ? { name: m[1], version: m[2] } : undefined;
}

async function readOne(dir: string, entry: string): Promise<PipDistribution | undefined> {
  const location = path.join(dir, entry);
  let file: string;
  if (entry.endsWith('.dist-info')) file = path.join(location, 'METADATA');
  else {
    // An .egg-info is either a directory holding PKG-INFO or a single PKG-INFO style file.
    const st = await fs.promises.stat(location).catch(() => undefined);
    if (!st) return undefined;
    file = st.isDirectory() ? path.join(location, 'PKG-INFO') : location;
  }
  const h = await readPipMetadataHeaders(file);
  const fromDir = splitPipDistInfoName(entry);
  const name = h?.name ?? fromDir?.name;
  const version = h?.version ?? fromDir?.version;
  if (!name || !version) return undefined;
  return { name, version, summary: h?.summary || undefined, location };
}

/** Every distribution installed in one directory (a --target dir or a site-packages dir). */
export async function listPipDistributions(dir: string, opts: { eggInfo?: boolean; concurrency?: number } = {}): Promise<PipDistribution[]> {
  let entries: string[];
  try {
    entries = await fs.promises.readdir(dir);
  } catch {
    return [];
  }
  const wanted = entries.filter((e) => e.endsWith('.dist-info') || (opts.eggInfo && e.endsWith('.egg-info'))).sort();
  const found = await mapLimit(wanted, opts.concurrency ?? 32, (e) => readOne(dir, e));
  return found.filter((d): d is PipDistribution => d !== undefined);
}

/** The `.dist-info` entries in `dir` whose project name matches `name` (PEP 503, so `_`/`-`/`.` and case agree). */
export async function findPipDistInfos(dir: string, name: string): Promise<string[]> {
  const want = normalizePipName(name);
  const entries = await fs.promises.readdir(dir).catch(() => [] as string[]);
  return entries.filter((e) => {
    const parts = splitPipDistInfoName(e);
    return e.endsWith('.dist-info') && parts !== undefined && normalizePipName(parts.name) === want;
  });
}
