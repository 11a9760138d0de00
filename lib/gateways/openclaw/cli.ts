// Running an OpenClaw gateway's own CLI on this host: an argument array, an allowlisted
// environment (the gateway's state folder and home, the CLI's own folder first on PATH so the
// Node it was installed with runs it), a time limit that ends the whole process group, and output
// capped. Its answers are parsed here, once.
import fs from 'node:fs';
import path from 'node:path';
import { childEnv } from '../../core/child-env';
import { AppError } from '../../core/errors';
import { runProcess } from '../../core/process';
import { which } from '../../core/which';
import type { GatewayAgentSkills, GatewaySkillStatus } from '../access';

export interface OpenClawCli {
  /** The absolute path of the gateway's command. */
  command: string;
  stateDir: string;
  home: string;
  timeoutMs: number;
}

export const CLI_TIMEOUT_MS = 60_000;
const MAX_OUTPUT = 16 * 1024 * 1024;

/** The gateway's command as an absolute path: as given when it has a '/', else found on PATH. */
export function resolveCli(cli: string | undefined): string | null {
  const name = cli ?? 'openclaw';
  if (name.includes('/')) return path.isAbsolute(name) && fs.existsSync(/*turbopackIgnore: true*/ name) ? name : null;
  return which(name);
}

export async function runCli(cli: OpenClawCli, args: string[], stdin?: string, signal?: AbortSignal) {
  const env = childEnv({
    HOME: cli.home,
    OPENCLAW_STATE_DIR: cli.stateDir,
    PATH: [path.dirname(cli.command), childEnv().PATH].join(path.delimiter),
    NO_COLOR: '1',
  });
  const r = await runProcess(cli.command, args, {
    env,
    timeoutMs: cli.timeoutMs,
    maxOutputBytes: MAX_OUTPUT,
    ...(stdin !== undefined ? { stdin } : {}),
    ...(signal ? { signal } : {}),
  });
  if (r.timedOut)
    throw new AppError(
      'unavailable',
      `The gateway's CLI (${path.basename(cli.command)} ${args.slice(0, 3).join(' ')}) gave no answer within ${cli.timeoutMs / 1000} s and was stopped.`,
      {
        hint: 'Check that the gateway CLI runs on this host (its Node version, its state folder) and try again.',
      },
    );
  return r;
}

/** The CLI's error message: its JSON error envelope when it printed one, else its last stderr lines. */
export function cliError(r: { stdout: string; stderr: string; code: number | null }): string {
  try {
    const j = JSON.parse(r.stdout) as { error?: { message?: string } };
    if (j.error?.message) return j.error.message.slice(0, 2000);
  } catch {
    /* not JSON */
  }
  const lines = `${r.stderr}\n${r.stdout}`.split('\n').filter((l) => l.trim() && !l.startsWith('[openclaw] Debug'));
  return lines.slice(-6).join('\n').slice(0, 2000) || `exit code ${r.code}`;
}

export async function cliVersion(cli: OpenClawCli): Promise<string> {
  const r = await runCli(cli, ['--version']);
  const m = /OpenClaw\s+(\S+)/.exec(r.stdout);
  if (r.code !== 0 || !m) throw new AppError('unavailable', `The gateway's CLI did not report its version: ${cliError(r)}`);
  return m[1] as string;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** Parses `skills list --agent <id> --json` (and the RPC's `skills.status`, which answers the same shape). */
export function parseSkillsList(agentId: string, value: unknown): GatewayAgentSkills {
  const v = (value ?? {}) as Record<string, unknown>;
  if (!Array.isArray(v.skills)) throw new AppError('upstream_error', `The gateway's skill list for ${agentId} has no skills array.`);
  const skills: GatewaySkillStatus[] = v.skills.map((raw) => {
    const s = (raw ?? {}) as Record<string, unknown>;
    const m = (s.missing ?? {}) as Record<string, unknown>;
    return {
      name: String(s.name ?? ''),
      source: String(s.source ?? ''),
      eligible: s.eligible === true,
      disabled: s.disabled === true,
      blockedByAllowlist: s.blockedByAllowlist === true,
      blockedByAgentFilter: s.blockedByAgentFilter === true,
      modelVisible: s.modelVisible === true,
      missing: { bins: strings(m.bins), anyBins: strings(m.anyBins), env: strings(m.env), config: strings(m.config), os: strings(m.os) },
    };
  });
  return {
    agentId,
    workspaceDir: typeof v.workspaceDir === 'string' ? v.workspaceDir : null,
    managedSkillsDir: typeof v.managedSkillsDir === 'string' ? v.managedSkillsDir : null,
    skills,
  };
}

export async function cliAgentSkills(cli: OpenClawCli, agentId: string): Promise<GatewayAgentSkills> {
  const r = await runCli(cli, ['skills', 'list', '--agent', agentId, '--json']);
  if (r.code !== 0) throw new AppError('upstream_error', `The gateway could not list the skills of agent ${agentId}: ${cliError(r)}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(r.stdout);
  } catch {
    throw new AppError('upstream_error', `The gateway's skill list for ${agentId} is not JSON.`);
  }
  return parseSkillsList(agentId, parsed);
}

/** `config validate --json`: {valid, warnings}. */
export async function cliValidate(cli: OpenClawCli): Promise<{ valid: boolean; message: string | null }> {
  const r = await runCli(cli, ['config', 'validate', '--json']);
  try {
    const j = JSON.parse(r.stdout) as { valid?: boolean; error?: { message?: string }; errors?: unknown };
    if (typeof j.valid === 'boolean') return { valid: j.valid, message: j.valid ? null : cliError(r) };
  } catch {
    /* fall through */
  }
  return { valid: r.code === 0, message: r.code === 0 ? null : cliError(r) };
}
