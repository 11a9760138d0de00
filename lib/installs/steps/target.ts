// Where a skill's install steps run: a Docker maintenance container (streamed steps, archive
// upload through the engine), or a sandbox of any backend through its own exec and file calls
// (E2B and CubeSandbox: the archive written as one file and unpacked by a constant script).
import { AppError } from '../../core/errors';
import type { SandboxBackend } from '../../sandbox/backend';
import { runExec } from '../../sandbox/docker/exec';
import { isSkillDirName, SKILLS_ROOT } from '../../sandbox/images/snapshot-names';
import type { Maintenance } from '../docker/maintenance';
import { copySkill, PREPARE_SCRIPT, REMOVE_SCRIPT, removeSkill, type SkillFile, SWAP_SCRIPT, skillArchive } from '../docker/skill-copy';
import { type InstallStep, type RunningStep, runStep, type StepStream } from '../docker/step';

export interface TargetExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface InstallTarget {
  /** What the log calls it: a container id or a sandbox id. */
  readonly label: string;
  /** A short command with its output collected (probes, constant scripts). */
  exec(argv: string[], opts: { timeoutMs: number; maxOutputBytes: number }): Promise<TargetExecResult>;
  /** One install step, its output handed over line by line. */
  runStep(step: InstallStep, onLine: (stream: StepStream, line: string) => void): RunningStep;
  /** The skill's files at <SKILLS_ROOT>/<name>, replacing a folder of that name. */
  copySkill(input: { name: string; files: SkillFile[] }): Promise<void>;
  removeSkill(name: string): Promise<void>;
}

/** Runs a constant script in the target; names reach it only as arguments. */
export async function targetScript(t: InstallTarget, what: string, text: string, args: string[]): Promise<void> {
  const r = await t.exec(['sh', '-c', text, `skilldock-${what}`, ...args], { timeoutMs: SCRIPT_TIMEOUT_MS, maxOutputBytes: 64 * 1024 });
  if (r.exitCode !== 0) throw new AppError('sandbox_error', `${what} failed (exit ${r.exitCode}): ${r.stderr.trim().slice(0, 300)}`);
}

export function dockerTarget(m: Maintenance): InstallTarget {
  return {
    label: m.containerId.slice(0, 12),
    exec: (argv, opts) => runExec(m.conn, m.containerId, { argv, ...opts }),
    runStep: (step, onLine) => runStep(m, step, onLine),
    copySkill: (input) => copySkill(m, input),
    removeSkill: (name) => removeSkill(m, name),
  };
}

const SCRIPT_TIMEOUT_MS = 120_000;
const STEP_OUTPUT_BYTES = 4 * 1024 * 1024;
// $1 the checked folder name, $2 the archive written beside the skills.
const UNPACK_SCRIPT = `set -e
tar -xf "$2" -C ${SKILLS_ROOT}
rm -f -- "$2"`;

/** Splits collected output into the lines a streamed step would have given. */
function emitLines(stream: StepStream, text: string, onLine: (stream: StepStream, line: string) => void): void {
  if (!text) return;
  const lines = text.replace(/\r?\n$/, '').split('\n');
  for (const l of lines) onLine(stream, l.replace(/\r$/, ''));
}

/**
 * A sandbox of any backend, commands as root. The backend's exec returns output at the end, so a
 * step's lines reach the log when it ends; stop() aborts it (the backend signals the process).
 */
export function backendTarget(backend: SandboxBackend, sandboxId: string): InstallTarget {
  const exec = async (
    argv: string[],
    opts: { timeoutMs: number; maxOutputBytes: number; signal?: AbortSignal; env?: Record<string, string>; cwd?: string },
  ) => {
    const r = await backend.exec(sandboxId, { argv, user: 'root', ...opts });
    return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut };
  };
  const t: InstallTarget = {
    label: sandboxId,
    exec,
    runStep(step, onLine) {
      const ctl = new AbortController();
      let stopped = false;
      const started = Date.now();
      const done = exec(step.argv, { timeoutMs: step.timeoutMs, maxOutputBytes: STEP_OUTPUT_BYTES, signal: ctl.signal, env: step.env, cwd: step.cwd })
        .then((r) => {
          emitLines('stdout', r.stdout, onLine);
          emitLines('stderr', r.stderr, onLine);
          return { exitCode: r.exitCode, timedOut: r.timedOut, stopped: false, durationMs: Date.now() - started };
        })
        .catch((e) => {
          if (stopped) return { exitCode: 137, timedOut: false, stopped: true, durationMs: Date.now() - started };
          throw e;
        });
      return {
        done,
        async stop() {
          stopped = true;
          ctl.abort(new Error('cancel'));
        },
      };
    },
    async copySkill(input) {
      if (!isSkillDirName(input.name)) throw new AppError('validation', 'skill bundle: invalid skill folder name');
      const archive = await skillArchive(input.name, input.files);
      await targetScript(t, 'skill-prepare', PREPARE_SCRIPT, [input.name]);
      const at = `${SKILLS_ROOT}/.${input.name}.tar`;
      await backend.writeFile(sandboxId, at, archive, 0o600);
      await targetScript(t, 'skill-unpack', UNPACK_SCRIPT, [input.name, at]);
      await targetScript(t, 'skill-swap', SWAP_SCRIPT, [input.name]);
    },
    async removeSkill(name) {
      if (!isSkillDirName(name)) throw new AppError('validation', 'skill bundle: invalid skill folder name');
      await targetScript(t, 'skill-remove', REMOVE_SCRIPT, [name]);
    },
  };
  return t;
}
