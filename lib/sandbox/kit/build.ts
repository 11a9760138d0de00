// The control kit's binary: skilldock-kit.c compiled static with the host's gcc once per source
// version, kept in a cache folder outside the repository (SKILLDOCK_KIT_DIR, else
// ~/.cache/skilldock/kit). The same toolchain node-gyp needs for `npm ci` builds it.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '@/lib/core/atomic-fs';
import { AppError } from '@/lib/core/errors';
import { runProcess } from '@/lib/core/process';

/** Where the kit's read-only volume is mounted in every Docker sandbox. */
export const KIT_MOUNT = '/.skilldock-kit';
export const KIT_BIN = `${KIT_MOUNT}/skilldock-kit`;

export interface KitBinary {
  /** sha256 of the source, first 16 hex characters: names the cache entry and the volume. */
  version: string;
  bytes: Buffer;
}

const SOURCE = 'lib/sandbox/kit/skilldock-kit.c';

function sourcePath(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.SKILLDOCK_KIT_SOURCE ?? path.join(process.cwd(), SOURCE));
}

function cacheRoot(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.SKILLDOCK_KIT_DIR ?? path.join(os.homedir(), '.cache', 'skilldock', 'kit'));
}

async function compile(src: string, version: string): Promise<Buffer> {
  const dir = path.join(cacheRoot(), version);
  const out = path.join(dir, 'skilldock-kit');
  const cached = await fs.promises.readFile(out).catch(() => null);
  if (cached?.length) return cached;
  await fs.promises.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.build-${process.pid}-${Date.now()}`);
  const gcc = process.env.SKILLDOCK_KIT_CC ?? 'gcc';
  const r = await runProcess(gcc, ['-static', '-O2', '-s', '-o', tmp, src], { timeoutMs: 120_000, maxOutputBytes: 64 * 1024 }).catch((e: Error) => ({
    code: null,
    stderr: e.message,
  }));
  if (r.code !== 0) {
    await fs.promises.rm(tmp, { force: true });
    throw new AppError(
      'invalid_state',
      `Docker sandboxes need Skilldock's control kit, and it could not be built with ${gcc}: ${String(r.stderr).trim().slice(0, 300) || 'no output'}`,
      { hint: 'Install gcc and libc6-dev (the same toolchain `npm ci` uses), then start the sandbox again.' },
    );
  }
  const bytes = await fs.promises.readFile(tmp);
  await writeFileAtomic(out, bytes, 0o755);
  await fs.promises.rm(tmp, { force: true });
  return bytes;
}

// process-wide: the kit is compiled from this program's own source, the same for every service
let built: Promise<KitBinary> | null = null;

/** The kit for this source version, compiled on first use (one build per process at most). */
export function kitBinary(): Promise<KitBinary> {
  built ??= (async () => {
    const src = sourcePath();
    const text = await fs.promises.readFile(src).catch((e: Error) => {
      throw new AppError('invalid_state', `The control kit's source is missing (${src}): ${e.message}`);
    });
    const version = createHash('sha256').update(text).digest('hex').slice(0, 16);
    return { version, bytes: await compile(src, version) };
  })().catch((e) => {
    built = null;
    throw e;
  });
  return built;
}
