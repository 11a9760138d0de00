// Which processes in a sandbox carry a terminal's marker in their environment: the shell of a
// session, or anything it started. The argv runs through whatever exec a test has at hand.
import { TERMINAL_ID_ENV } from '@/lib/terminal/marker-kill';

// Busybox grep stops at the first NUL of a line, so each environ is split into lines first; a
// process can end between the glob and the read, and its vanished /proc entry is not an error.
// The control kit's own process (the session's root, from its read-only mount) is not counted.
const SCRIPT =
  'for d in /proc/[0-9]*; do [ "$(readlink "$d/exe")" = /.skilldock-kit/skilldock-kit ] && continue; { tr "\\0" "\\n" < "$d/environ" | grep -q "^$1" && echo "${d#/proc/}"; } 2>/dev/null; done; true';

/** The argv that prints one pid per line: of `sessionId`'s processes, or of any terminal's. */
export function markedProcessesArgv(sessionId?: string): string[] {
  const marker = sessionId ? `${TERMINAL_ID_ENV}=${sessionId}$` : `${TERMINAL_ID_ENV}=`;
  return ['sh', '-c', SCRIPT, 'skilldock-marked', marker];
}

/** The pids in that argv's output. */
export const parsePids = (stdout: string): string[] =>
  stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^\d+$/.test(l));

/** Runs the check through `exec` (which answers the argv's stdout). */
export async function markedPids(exec: (argv: string[]) => Promise<string>, sessionId?: string): Promise<string[]> {
  return parsePids(await exec(markedProcessesArgv(sessionId)));
}
