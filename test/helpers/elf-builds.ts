// Real ELF programs built by the test with Debian's toolchains: a dynamic glibc build (gcc), a static
// build (gcc -static), a dynamic musl build (musl-gcc, loader /lib/ld-musl-x86_64.so.1) and an
// aarch64 build (aarch64-linux-gnu-gcc). Each prints `hello-tool <version>` for `--version`.
// Builds are cached per process in one temp dir; a missing toolchain is an error, never a skip.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { which as findExecutable } from '@/lib/core/which';

export type ElfBuildKind = 'glibc' | 'static' | 'musl' | 'aarch64';

export interface ElfBuildOptions {
  /** Printed after `hello-tool ` by `--version`; letters, digits, `.`, `+`, `-` only. */
  version: string;
  /** Exit code of `--version` (default 0); a non-zero one makes the smoke test fail. */
  versionExit?: number;
  /** Link with this PT_INTERP instead of the toolchain's loader (dynamic builds only). */
  interp?: string;
}

const SOURCE = `#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--version") == 0) {
    printf("hello-tool %s\\n", HELLO_VERSION);
    return HELLO_EXIT;
  }
  printf("hello from hello-tool %s\\n", HELLO_VERSION);
  return 0;
}
`;

/** Compiler and flags of each build, and the Debian package that provides the compiler. */
const TOOLCHAINS: Record<ElfBuildKind, { cc: string; flags: string[]; pkg: string }> = {
  glibc: { cc: 'gcc', flags: [], pkg: 'gcc libc6-dev' },
  static: { cc: 'gcc', flags: ['-static'], pkg: 'gcc libc6-dev' },
  musl: { cc: 'musl-gcc', flags: [], pkg: 'musl-tools' },
  aarch64: { cc: 'aarch64-linux-gnu-gcc', flags: [], pkg: 'gcc-aarch64-linux-gnu libc6-dev-arm64-cross' },
};

/** What `readelf` must report for each build, so a fixture never silently means something else. */
export const EXPECTED_INTERP: Record<ElfBuildKind, string | null> = {
  glibc: '/lib64/ld-linux-x86-64.so.2',
  static: null,
  musl: '/lib/ld-musl-x86_64.so.1',
  aarch64: '/lib/ld-linux-aarch64.so.1',
};
const EXPECTED_MACHINE: Record<ElfBuildKind, RegExp> = { glibc: /X86-64/, static: /X86-64/, musl: /X86-64/, aarch64: /AArch64/ };

const VERSION_RE = /^[0-9A-Za-z.+-]{1,40}$/;
const INTERP_RE = /^\/[0-9A-Za-z._/-]{1,200}$/;

const which = (cmd: string) => findExecutable(cmd, process.env.PATH ?? '/usr/bin:/bin');

let workDir: string | null = null;
const cache = new Map<string, string>();

function dir(): string {
  if (!workDir) {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-elf-builds-'));
    const created = workDir;
    process.once('exit', () => fs.rmSync(created, { recursive: true, force: true }));
    fs.writeFileSync(path.join(workDir, 'hello.c'), SOURCE);
  }
  return workDir;
}

/** Removes the build dir of this process (call in afterAll; an exit hook is the fallback). */
export function cleanupElfBuilds(): void {
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  workDir = null;
  cache.clear();
}

/** `readelf -lh` of a file: the interpreter (null when none) and the machine line. */
export function readelfSummary(file: string): { interp: string | null; machine: string } {
  const out = execFileSync('readelf', ['-lhW', file], { encoding: 'utf8' });
  const interp = /\[Requesting program interpreter: ([^\]]+)\]/.exec(out)?.[1] ?? null;
  const machine = /Machine:\s+(.+)/.exec(out)?.[1]?.trim() ?? '';
  return { interp, machine };
}

/** Throws with the apt-get line to run when a build's compiler is not installed. */
export function assertToolchain(kind: ElfBuildKind): void {
  const { cc, pkg } = TOOLCHAINS[kind];
  if (!which(cc)) throw new Error(`The ${kind} test build needs ${cc}, which is not installed: apt-get install -y --no-install-recommends ${pkg}`);
  if (!which('readelf')) throw new Error('The test builds are checked with readelf: apt-get install -y --no-install-recommends binutils');
}

/** Builds (once per process) and returns the path of a real ELF program of the given kind. */
export function buildHello(kind: ElfBuildKind, opts: ElfBuildOptions): string {
  const exit = opts.versionExit ?? 0;
  if (!VERSION_RE.test(opts.version)) throw new Error(`Invalid test build version ${JSON.stringify(opts.version)}`);
  if (!Number.isInteger(exit) || exit < 0 || exit > 255) throw new Error(`Invalid exit code ${exit}`);
  if (opts.interp !== undefined && (!INTERP_RE.test(opts.interp) || kind === 'static'))
    throw new Error(`Invalid interpreter ${JSON.stringify(opts.interp)} for a ${kind} build`);
  const key = `${kind}-${opts.version}-${exit}${opts.interp ? `-${opts.interp.replace(/\//g, '_')}` : ''}`;
  const hit = cache.get(key);
  if (hit) return hit;
  assertToolchain(kind);
  const { cc, flags } = TOOLCHAINS[kind];
  const out = path.join(dir(), key);
  const args = [...flags, '-O2', '-o', out, `-DHELLO_VERSION="${opts.version}"`, `-DHELLO_EXIT=${exit}`];
  if (opts.interp) args.push(`-Wl,--dynamic-linker=${opts.interp}`);
  args.push(path.join(dir(), 'hello.c'));
  execFileSync(cc, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  const got = readelfSummary(out);
  const wantInterp = opts.interp ?? EXPECTED_INTERP[kind];
  if (got.interp !== wantInterp || !EXPECTED_MACHINE[kind].test(got.machine)) {
    throw new Error(
      `The ${kind} build is not what the tests expect: readelf says interpreter ${got.interp ?? 'none'}, machine ${got.machine}; expected ${wantInterp ?? 'none'}, ${EXPECTED_MACHINE[kind]}`,
    );
  }
  cache.set(key, out);
  return out;
}
