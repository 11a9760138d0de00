// The content of the scripts a command would run, read from the agent's own sandbox, so an
// approval binds what runs and not only the command line: a script changed after it was approved
// no longer matches. Candidates are the words of each judged segment that name a file (a path, or
// a name with a script extension) resolved from the working directory; those that are not regular
// files in the sandbox are left out.
import { createHash } from 'node:crypto';
import path from 'node:path/posix';
import type { SandboxBackend } from '../../sandbox/backend';
import type { SegmentDecision } from '../types';
import type { ScriptDigest } from './binding';

const MAX_SCRIPTS = 8;
const MAX_SCRIPT_BYTES = 4 * 1024 * 1024;
const SCRIPT_EXT = /\.(sh|bash|py|js|mjs|cjs|ts|pl|rb|php|lua|r|awk|sed)$/i;

/** The files a command's segments may run, as absolute paths (at most a few). */
export function scriptCandidates(segments: readonly SegmentDecision[], cwd: string): string[] {
  const out = new Set<string>();
  for (const seg of segments) {
    for (const [i, word] of seg.argv.entries()) {
      if (!word || word.startsWith('-') || word.includes('\0') || word.length > 1024) continue;
      if (!(word.includes('/') || (i > 0 && SCRIPT_EXT.test(word)))) continue;
      out.add(path.resolve(cwd, word));
      if (out.size >= MAX_SCRIPTS) return [...out];
    }
  }
  return [...out];
}

/** sha256 of each candidate that is a file in the sandbox; missing or unreadable ones are skipped. */
export async function digestsIn(backend: SandboxBackend, sandboxId: string, files: readonly string[]): Promise<ScriptDigest[]> {
  const found = await Promise.all(
    files.map(async (file) => {
      try {
        const hash = createHash('sha256');
        for await (const chunk of await backend.readFile(sandboxId, file, MAX_SCRIPT_BYTES)) hash.update(chunk as Buffer);
        return { path: file, sha256: hash.digest('hex') };
      } catch {
        return null;
      }
    }),
  );
  return found.filter((d): d is ScriptDigest => d !== null);
}
