// One catalog skill installed into an open maintenance container: the stored files, the plan for
// what the container already has, each step with its lines in the log, and verification. A failure
// of the skill itself comes back as a typed reason (the caller fails that record alone); a cancel
// is thrown; the container's own state is the caller's.
import type { AppDb } from '@/db/client';
import { AppError } from '../../core/errors';
import { isSkillDirName, SKILLS_ROOT } from '../../sandbox/images/snapshot-names';
import { getRuntimeSettings } from '../../settings/store';
import { managedStore } from '../../skills/service/roots';
import { loadStoredSkill, type StoredSkill } from '../catalog/skill-source';
import type { StepStream } from '../docker/build';
import { type InstallPlan, type InstallStep, planInstall, type TargetTools } from '../plan/plan';
import { verificationFailure } from '../plan/verify';
import type { StepEnv } from './skill-step-env';
import { type InstallTarget, targetScript } from './target';

export interface SkillRef {
  skillKey: string;
  version: string;
  contentHash: string;
}

export interface SkillFailure {
  code: string;
  message: string;
  stage: string;
}

export interface SkillStepHooks {
  signal: AbortSignal;
  log(line: string, stream?: 'stdout' | 'stderr' | 'info'): void;
  /** Entering a stage of this skill ('plan', 'copy', 'deps', 'install-specs', 'verify', …). */
  stage(name: string): Promise<void>;
  /** The step now running, so a cancel can end it; null when it ended. */
  running(step: { stop(): Promise<void> } | null): void;
}

/** Output kept per step for the failure's reason (the log has all of it). */
const KEEP_CHARS = 64 * 1024;
const TOOLS = ['python3', 'pip', 'node', 'npm', 'apt-get', 'apk', 'uv', 'go', 'curl', 'wget', 'bash', 'unzip'] as const;
const BIN_NAME = /^[A-Za-z0-9._+-]{1,64}$/;
// process-wide: a constant table, never written
const NON_SYSTEM = new Set<string>(['pip', 'npm', 'github']);
// Python packages go in with `python3 -m pip` (the venv sees the image's pip), so a `pip` on PATH
// says nothing: the module must run (without writing pip's bytecode into the snapshot). The marker
// has a space, so no program name can collide with it.
const PIP_MODULE = 'python3 -m pip';
const PROBE_SCRIPT = `for b; do command -v "$b" >/dev/null 2>&1 && echo "$b"; done
PYTHONDONTWRITEBYTECODE=1 python3 -m pip --version >/dev/null 2>&1 && echo '${PIP_MODULE}'
exit 0`;
// $1 is a checked skill folder name. The copy under /tmp goes with the snapshot's wipe of /tmp.
const KEEP_ROOT = '/tmp/skilldock-keep';
const KEEP_SCRIPT = `set -e
rm -rf -- "${KEEP_ROOT}/$1"
if [ -d "${SKILLS_ROOT}/$1" ]; then mkdir -p ${KEEP_ROOT}; cp -a -- "${SKILLS_ROOT}/$1" "${KEEP_ROOT}/$1"; fi`;
const RESTORE_SCRIPT = `set -e
d=${SKILLS_ROOT}
rm -rf -- "$d/$1" "$d/.$1.new" "$d/.$1.old"
if [ -d "${KEEP_ROOT}/$1" ]; then mv -- "${KEEP_ROOT}/$1" "$d/$1"; fi`;

async function probeTools(t: InstallTarget, bins: string[]): Promise<{ has: TargetTools; present: string[] }> {
  const names = [...new Set([...TOOLS, ...bins])];
  const r = await t.exec(['sh', '-c', PROBE_SCRIPT, 'skilldock-probe', ...names], { timeoutMs: 30_000, maxOutputBytes: 64 * 1024 });
  const present = new Set(r.stdout.split('\n').filter(Boolean));
  const has: TargetTools = {
    python3: present.has('python3'),
    pip: present.has(PIP_MODULE),
    node: present.has('node'),
    npm: present.has('npm'),
    apt: present.has('apt-get'),
    apk: present.has('apk'),
    uv: present.has('uv'),
    go: present.has('go'),
    curl: present.has('curl'),
    wget: present.has('wget'),
    bash: present.has('bash'),
    unzip: present.has('unzip'),
  };
  return { has, present: bins.filter((b) => present.has(b)) };
}

/** How a step shows in the log: constant scripts by their name, not their text. */
export function commandLine(step: InstallStep): string {
  const argv = step.argv[1] === '-c' && step.argv.length > 3 ? [step.argv[0], '-c', `<${step.argv[3]}>`, ...step.argv.slice(4)] : step.argv;
  return `$ ${argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ')}`;
}

const aborted = (signal: AbortSignal): never => {
  throw signal.reason ?? new Error('cancel');
};

function folderName(name: string): string {
  if (!isSkillDirName(name)) throw new AppError('validation', `${JSON.stringify(name.slice(0, 80))} cannot name a skill folder.`);
  return name;
}

/** Keeps the folder a skill has in the container now, so a failed replacement can put it back. */
export const keepSkillFolder = (t: InstallTarget, name: string) => targetScript(t, 'skill-keep', KEEP_SCRIPT, [folderName(name)]);
/** Puts back what keepSkillFolder kept, or removes the folder when there was none. */
export const restoreSkillFolder = (t: InstallTarget, name: string) => targetScript(t, 'skill-restore', RESTORE_SCRIPT, [folderName(name)]);

export async function installSkillInto(
  t: InstallTarget,
  deps: { db: AppDb; dataDir: string; stepEnv?: StepEnv },
  ref: SkillRef,
  hooks: SkillStepHooks,
): Promise<SkillFailure | null> {
  let stage = 'plan';
  const enter = async (name: string) => {
    stage = name;
    await hooks.stage(name);
  };
  const failure = (code: string, message: string): SkillFailure => ({ code, message, stage });
  await enter('plan');
  let skill: StoredSkill;
  try {
    skill = await loadStoredSkill(managedStore(deps.dataDir), ref.skillKey, ref.version, ref.contentHash);
  } catch (e) {
    return failure('skill_unavailable', (e as Error).message);
  }
  const wanted = [...skill.manifest.requires.bins, ...skill.manifest.requires.anyBins, ...skill.manifest.install.flatMap((s) => s.bins)];
  const systemNames = skill.deps.filter((d) => !NON_SYSTEM.has(d.spec.manager)).map((d) => d.spec.name);
  const target = await probeTools(
    t,
    [...wanted, ...systemNames].filter((b) => BIN_NAME.test(b)),
  );
  // A system dependency the image already has on its PATH (a shebang's sh, say) needs no package.
  const needed = skill.deps.filter((d) => NON_SYSTEM.has(d.spec.manager) || !target.present.includes(d.spec.name));
  for (const d of skill.deps) if (!needed.includes(d)) hooks.log(`${d.spec.name} is already in the image; no package needed`);
  const plan: InstallPlan = planInstall({
    skill: { name: ref.skillKey, files: skill.planFiles, manifest: skill.manifest },
    deps: needed,
    settings: await getRuntimeSettings(deps.db),
    target: { os: 'linux', has: target.has, presentBins: target.present },
  });
  for (const s of plan.skipped) hooks.log(`Skipping install spec ${s.index + 1} (${s.kind}): ${s.reason}`);
  if (!plan.ok) {
    const p = plan.problems[0];
    const more = plan.problems.length > 1 ? ` (and ${plan.problems.length - 1} more problems)` : '';
    for (const x of plan.problems) hooks.log(`${x.code}: ${x.message}`, 'stderr');
    return failure(p.code, `${p.message}${more}`);
  }
  if (plan.hostDirs.length) return failure('unsupported_install', 'Package indexes from host folders (find-links) are not copied into sandboxes yet.');

  const m = skill.manifest;
  const vars = deps.stepEnv ? await deps.stepEnv(ref.skillKey, m.primaryEnv ? [...m.requires.env, m.primaryEnv] : m.requires.env) : {};
  const hasVars = Object.keys(vars).length > 0;
  for (const step of plan.steps) {
    if (step.stage !== stage) await enter(step.stage);
    if (hooks.signal.aborted) aborted(hooks.signal);
    hooks.log(`# ${step.title}`);
    if (step.upload?.kind === 'skill-archive') {
      hooks.log(`copying ${skill.files.length} files to ${plan.skillDir}`);
      await t.copySkill({ name: ref.skillKey, files: skill.files });
      continue;
    }
    hooks.log(commandLine(step));
    const out = { stdout: '', stderr: '' };
    const onLine = (s: StepStream, line: string) => {
      hooks.log(line, s);
      if (out[s].length < KEEP_CHARS) out[s] += `${line}\n`;
    };
    // A step's own env (the venv's PATH, say) wins over a variable of the same name.
    const run = t.runStep(hasVars ? { ...step, env: { ...vars, ...step.env } } : step, onLine);
    hooks.running(run);
    const result = await run.done.finally(() => hooks.running(null));
    if (result.stopped || hooks.signal.aborted) aborted(hooks.signal);
    const f = verificationFailure(step, { exitCode: result.exitCode, timedOut: result.timedOut, ...out });
    if (f) return failure(f.code, f.detail ? `${f.reason} — ${f.detail}` : f.reason);
  }
  return null;
}
