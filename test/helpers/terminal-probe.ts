// What a terminal test checks inside the sandbox and around a socket: which processes still carry a
// terminal's marker (a shell, or anything it started), and opening a terminal that must succeed.

import { resolve } from '@/lib/sandbox/instances/service';
import { markedPids as marked } from './marked-processes';
import { waitFor } from './services';
import { type ConnectOptions, TerminalClient, type TerminalHarness, type TerminalUser } from './terminal-harness';

const EXEC = { timeoutMs: 20_000, maxOutputBytes: 1 << 20 };

/** Runs argv in the sandbox through the backend's own exec (no TTY, no terminal marker). */
export async function execIn(h: TerminalHarness, instanceId: string, argv: string[]): Promise<string> {
  const { backend, sandbox } = await resolve(h.ts.services.sandboxes, instanceId);
  const r = await backend.exec(sandbox.id, { argv, ...EXEC });
  return r.stdout;
}

/** Pids of the processes whose environment carries a terminal marker (`sessionId`'s, or any terminal's). */
export async function markedPids(h: TerminalHarness, instanceId = h.instanceId, sessionId?: string): Promise<string[]> {
  return marked((argv) => execIn(h, instanceId, argv), sessionId);
}

/** Waits (bounded) until no process of the terminal (or of any terminal) is left in the sandbox. */
export function noShellsLeft(h: TerminalHarness, instanceId = h.instanceId, sessionId?: string): Promise<true> {
  return waitFor(async () => (await markedPids(h, instanceId, sessionId)).length === 0, `no terminal processes in ${instanceId}`, 20_000);
}

/** Rejects with `what` when `p` has not settled within `ms`: a bound on waiting, not a timing assertion. */
export function bounded<T>(p: Promise<T>, what: string, ms = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out waiting for ${what}`)), ms);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

/** A ticket and a socket that must both succeed; resolves once the shell answered a command. */
export async function openTerminal(
  h: TerminalHarness,
  user: TerminalUser,
  opts: Partial<ConnectOptions> & { instanceId?: string } = {},
): Promise<TerminalClient> {
  const instanceId = opts.instanceId ?? h.instanceId;
  const t = await h.ticket(user, { instanceId });
  if (t.status !== 200) throw new Error(`ticket refused ${t.status} ${JSON.stringify(t.json)}`);
  const c = await TerminalClient.connect(h.port, { sandbox: instanceId, cookie: user.cookie, ...opts, ticket: t.json.ticket });
  if (!(c instanceof TerminalClient)) throw new Error(`upgrade refused ${c.refused} ${c.body}`);
  await bounded(
    c.until(() => !!c.ready),
    'ready',
  );
  c.type('echo up-$((20+1))\r');
  await bounded(c.waitFor(/up-21/), 'the shell to answer');
  return c;
}
