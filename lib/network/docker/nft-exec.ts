// Runs the firewall programs (nft, conntrack, and the iptables + ipset fallback) through the core process runner, optionally inside a
// network namespace (`ip netns exec`), with a timeout, an output cap and the allowlisted env.
import path from 'node:path';
import { childEnv } from '@/lib/core/child-env';
import { AppError, hasCode } from '@/lib/core/errors';
import { type RunResult, runProcess } from '@/lib/core/process';
import { which } from '@/lib/core/which';
import { netnsName } from './nft-values';

export interface FirewallRunOptions {
  /** Run inside this network namespace (`ip netns exec <netns> …`); tests use a throwaway one. */
  netns?: string;
  timeoutMs?: number;
}

const TIMEOUT_MS = 15_000;
const MAX_OUTPUT = 16 * 1024 * 1024;
// Firewall tools live in sbin, which an unprivileged user's PATH often lacks.
const SBIN = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

function program(name: string, env: NodeJS.ProcessEnv): string {
  return which(name, [env.PATH, ...SBIN].filter(Boolean).join(path.delimiter)) ?? name;
}

// Each program, and the Debian package that provides it.
const PACKAGE = {
  nft: 'nftables',
  conntrack: 'conntrack',
  iptables: 'iptables',
  ip6tables: 'iptables',
  'iptables-restore': 'iptables',
  'ip6tables-restore': 'iptables',
  'iptables-save': 'iptables',
  'ip6tables-save': 'iptables',
  ipset: 'ipset',
} as const;

export type FirewallTool = keyof typeof PACKAGE;

/** Runs `name args` and returns the result whatever the exit status; a missing program is `unavailable`. */
export async function runFirewallTool(name: FirewallTool, args: string[], opts: FirewallRunOptions & { stdin?: string } = {}): Promise<RunResult> {
  const env = childEnv();
  const tool = program(name, env);
  const [command, argv] = opts.netns === undefined ? [tool, args] : [program('ip', env), ['netns', 'exec', netnsName(opts.netns, 'netns'), tool, ...args]];
  let result: RunResult;
  try {
    result = await runProcess(command, argv, {
      env,
      timeoutMs: opts.timeoutMs ?? TIMEOUT_MS,
      maxOutputBytes: MAX_OUTPUT,
      ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}),
    });
  } catch (e) {
    if (hasCode(e, 'not_found')) {
      throw new AppError('unavailable', `"${name}" is not installed.`, { hint: `Install the Debian package ${PACKAGE[name]}.`, cause: e });
    }
    throw e;
  }
  if (result.timedOut) throw new AppError('internal', `"${name}" did not finish within ${Math.round((opts.timeoutMs ?? TIMEOUT_MS) / 1000)} s.`);
  if (result.truncated) throw new AppError('internal', `"${name}" wrote more than ${MAX_OUTPUT} bytes.`);
  return result;
}

/** The error for a failed run: a missing privilege is `permission`, anything else `internal`. */
export function toolFailed(name: string, what: string, result: RunResult): AppError {
  const stderr = result.stderr.trim().slice(0, 2000);
  const denied = /Operation not permitted|Permission denied/i.test(stderr);
  return new AppError(denied ? 'permission' : 'internal', `${name} could not ${what}: ${stderr || `exit status ${result.code}`}`, {
    details: { exitCode: result.code, stderr },
    ...(denied ? { hint: 'Skilldock needs root or CAP_NET_ADMIN to manage its firewall table.' } : {}),
  });
}
