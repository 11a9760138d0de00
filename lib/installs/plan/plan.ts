// The install plan: what runs inside a maintenance sandbox to install and verify one skill, as
// argv arrays. Pure: it reads nothing and runs nothing. Every value from the skill or the settings
// passes an allowlist first; a value that does not is a typed problem, and a plan with problems
// must not run at all.
import { pipImportName } from '../../runtime/deps/aliases';
import type { PackageSpec } from '../../runtime/types';
import { indexConfig, npmInstallStep, pythonInstallStep, systemSteps, venvStep } from './deps';
import { UNPACK_SCRIPT, WIPE_SCRIPT } from './scripts';
import { planInstallSpecs } from './specs';
import { INSTALL_TMP, type InstallPlan, type InstallStep, type PlanInput, type PlanProblem, SKILLS_ROOT, VENV_PYTHON } from './types';
import { type Checked, checkBinName, checkModuleName, checkPackageSpec, checkRelativePath, checkSkillName, npmRequirement, pipRequirement } from './values';
import { scriptInterpreter, verifySteps } from './verify';

export * from './types';

const MIN = 60_000;

export function planInstall(input: PlanInput): InstallPlan {
  const problems: PlanProblem[] = [];
  const take = <T>(c: Checked<T>): T | null => {
    if (c.ok) return c.value;
    problems.push(c.problem);
    return null;
  };
  const name = take(checkSkillName(input.skill.name));
  // With an invalid name nothing below has a folder to work in; the problem alone is the answer.
  if (name === null) return { ok: false, skillDir: '', steps: [], problems, skipped: [], hostDirs: [] };
  const skillDir = `${SKILLS_ROOT}/${name}`;
  const { manifest } = input.skill;
  const { has } = input.target;

  checkPreconditions(input, problems);
  const files = input.skill.files.filter((f) => take(checkRelativePath(f.path)) !== null);
  const index = indexConfig(input.settings, problems);

  const pip: string[] = [];
  const npm: string[] = [];
  const system: PackageSpec[] = [];
  const modules = new Set<string>();
  for (const dep of input.deps) {
    const spec = take(checkPackageSpec(dep.spec, 'deps'));
    if (!spec) continue;
    if (spec.manager === 'pip') {
      pip.push(pipRequirement(spec));
      const module = take(checkModuleName(pipImportName(spec, dep.importName)));
      if (module) modules.add(module);
    } else if (spec.manager === 'npm') npm.push(npmRequirement(spec));
    else if (spec.manager === 'github') {
      problems.push({
        code: 'unsupported_install',
        kind: 'dep',
        value: spec.raw,
        message: `${spec.raw}: GitHub-release dependencies are not installed into sandboxes yet; add a download installer with its sha256`,
      });
    } else system.push(spec);
  }

  const specs = planInstallSpecs(manifest.install, { skill: name, target: input.target, index });
  problems.push(...specs.problems);
  const hasPythonScripts = files.some((f) => scriptInterpreter(f) === 'python');
  const needVenv = pip.length > 0 || specs.python || hasPythonScripts || modules.size > 0;

  const steps: InstallStep[] = [...copySteps(name, skillDir)];
  steps.push(...systemSteps(system, input.target, problems));
  if (needVenv && has.python3) steps.push(venvStep());
  if (pip.length) {
    if (!has.python3 || !has.pip) {
      const tool = has.python3 ? 'pip' : 'python3';
      const use = has.python3 ? 'python3-pip' : 'python3 and python3-pip';
      problems.push({
        code: 'unresolved_precondition',
        requirement: tool,
        message: `the image has no ${tool}; use an image with ${use} (needed for the Python packages ${pip.join(', ')})`,
      });
    } else steps.push(pythonInstallStep(pip, index, 'pip', `Install Python packages: ${pip.join(', ')}`));
  }
  if (npm.length) {
    if (!has.npm) problems.push({ code: 'unresolved_precondition', requirement: 'npm', message: `Node packages (${npm.join(', ')}) need npm in the image` });
    else steps.push(npmInstallStep(npm, index, 'deps', `Install Node packages: ${npm.join(', ')}`));
  }
  steps.push(...specs.steps);

  const chosenBins = manifest.install.flatMap((s, i) => (specs.skipped.some((k) => k.index === i) ? [] : s.bins));
  const bins = unique([...manifest.requires.bins, ...chosenBins].map((b) => take(checkBinName(b))));
  const anyBins = unique(manifest.requires.anyBins.map((b) => take(checkBinName(b))));
  const verify = verifySteps({ skillDir, files, modules: [...modules], bins, anyBins, has, python: VENV_PYTHON });
  problems.push(...verify.problems);
  steps.push(...verify.steps, cleanupStep());

  return { ok: problems.length === 0, skillDir, steps, problems, skipped: specs.skipped, hostDirs: index.hostDirs };
}

function unique(values: (string | null)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== null))];
}

function copySteps(name: string, skillDir: string): InstallStep[] {
  const archive = `${INSTALL_TMP}/skill.tar`;
  return [
    {
      stage: 'copy',
      title: 'Prepare folders',
      argv: ['mkdir', '-p', '--', INSTALL_TMP, SKILLS_ROOT],
      timeoutMs: MIN,
    },
    {
      stage: 'copy',
      title: `Copy the skill's files to ${skillDir}`,
      argv: ['sh', '-c', UNPACK_SCRIPT, 'skilldock-unpack', archive, `${SKILLS_ROOT}/.incoming-${name}`, skillDir],
      upload: { kind: 'skill-archive', path: archive },
      timeoutMs: 5 * MIN,
    },
  ];
}

/** /workspace and /tmp are emptied before the snapshot (the install's scratch space is under /tmp). */
function cleanupStep(): InstallStep {
  return { stage: 'cleanup', title: 'Wipe /workspace and /tmp', argv: ['sh', '-c', WIPE_SCRIPT, 'skilldock-wipe', '/workspace', '/tmp'], timeoutMs: 5 * MIN };
}

/** Requirements no install step can satisfy: the platform, and (when the caller knows them) env and config. */
function checkPreconditions(input: PlanInput, problems: PlanProblem[]): void {
  const { manifest } = input.skill;
  const { target } = input;
  if (manifest.os.length && !manifest.os.includes(target.os)) {
    problems.push({
      code: 'unresolved_precondition',
      requirement: 'os',
      message: `the skill runs on ${manifest.os.join(', ')} only; sandboxes are ${target.os}`,
    });
  }
  if (target.envNames) {
    const have = new Set(target.envNames);
    for (const env of manifest.requires.env) {
      if (!have.has(env)) {
        problems.push({
          code: 'unresolved_precondition',
          requirement: `env:${env}`,
          message: `${env} must be set for this sandbox config (an env value or a secret)`,
        });
      }
    }
  }
  if (target.config) {
    for (const key of manifest.requires.config) {
      if (!truthyAt(target.config, key)) {
        problems.push({ code: 'unresolved_precondition', requirement: `config:${key}`, message: `config "${key}" must be set and true for this skill` });
      }
    }
  }
}

function truthyAt(config: Readonly<Record<string, unknown>>, key: string): boolean {
  let value: unknown = config;
  for (const part of key.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return false;
    value = (value as Record<string, unknown>)[part];
  }
  return !!value;
}
