// The verify stage: every script parses with the interpreter that would run it, every Python
// package imports, every required program is on PATH, and the skill's files are as shipped.
// A skill without any dependency list is still parsed and checked: no list never means ready.
import path from 'node:path';
import { parseShebang } from '../../runtime/deps/scan';
import { ANY_BINS_SCRIPT, BINS_SCRIPT, FILES_SCRIPT, IMPORTS_SCRIPT } from './scripts';
import { INSTALL_TMP, type InstallStep, type PlanProblem, type PlanSkillFile, type TargetTools, type VerifyCheck } from './types';

const STEP_MS = 60_000;
const FILES_PER_STEP = 300;

export type ScriptInterpreter = 'python' | 'node' | 'sh' | 'bash';

/** Which interpreter parses a file: by extension, else (extensionless) by its shebang; null = not a script. */
export function scriptInterpreter(file: PlanSkillFile): ScriptInterpreter | null {
  const ext = path.posix.extname(file.path).toLowerCase();
  const shebang = file.firstLine ? parseShebang(file.firstLine)?.interpreter : undefined;
  if (ext === '.py' || ext === '.pyw') return 'python';
  if (ext === '.js' || ext === '.mjs' || ext === '.cjs') return 'node';
  if (ext === '.bash') return 'bash';
  if (ext === '.sh') return shebang === 'bash' ? 'bash' : 'sh';
  if (ext !== '' || !shebang) return null;
  if (/^python(\d+(\.\d+)?)?$/.test(shebang)) return 'python';
  if (shebang === 'node' || shebang === 'nodejs') return 'node';
  if (shebang === 'bash') return 'bash';
  if (shebang === 'sh' || shebang === 'dash' || shebang === 'ash') return 'sh';
  return null;
}

export interface VerifyInput {
  /** Absolute skill folder in the sandbox. */
  skillDir: string;
  /** Validated files (relative paths already checked). */
  files: readonly PlanSkillFile[];
  /** Validated module names to import. */
  modules: readonly string[];
  /** Validated program names: each must be found. */
  bins: readonly string[];
  /** Validated program names: one must be found. */
  anyBins: readonly string[];
  has: TargetTools;
  /** The Python that has the installed packages (the venv's). */
  python: string;
}

export function verifySteps(input: VerifyInput): { steps: InstallStep[]; problems: PlanProblem[] } {
  const steps: InstallStep[] = [];
  const problems: PlanProblem[] = [];
  const step = (title: string, argv: string[], check: VerifyCheck, extra: Partial<InstallStep> = {}) =>
    steps.push({ stage: 'verify', title, argv, timeoutMs: STEP_MS, check, ...extra });
  const need = new Set<string>();
  for (const file of input.files) {
    const interpreter = scriptInterpreter(file);
    if (!interpreter) continue;
    const abs = `${input.skillDir}/${file.path}`;
    const check: VerifyCheck = { kind: 'syntax', file: file.path, interpreter };
    const tool = interpreter === 'python' ? 'python3' : interpreter;
    if ((tool === 'python3' && !input.has.python3) || (tool === 'node' && !input.has.node) || (tool === 'bash' && !input.has.bash)) {
      if (!need.has(tool))
        problems.push({ code: 'unresolved_precondition', requirement: tool, message: `${file.path} needs ${tool}, which the image does not have` });
      need.add(tool);
      continue;
    }
    if (interpreter === 'python') {
      // py_compile always writes a .pyc; the prefix keeps it out of the skill folder (in /tmp, wiped later).
      step(`Parse ${file.path}`, [input.python, '-m', 'py_compile', abs], check, { env: { PYTHONPYCACHEPREFIX: `${INSTALL_TMP}/pycache` } });
    } else if (interpreter === 'node') step(`Parse ${file.path}`, ['node', '--check', abs], check);
    else step(`Parse ${file.path}`, [interpreter, '-n', abs], check);
  }
  if (input.modules.length) {
    if (!input.has.python3)
      problems.push({
        code: 'unresolved_precondition',
        requirement: 'python3',
        message: `Python packages are needed (${input.modules.join(', ')}), but the image has no python3`,
      });
    else
      step(
        `Import ${input.modules.join(', ')}`,
        [input.python, '-c', IMPORTS_SCRIPT, ...input.modules],
        { kind: 'imports', modules: [...input.modules] },
        { cwd: '/tmp', env: { PYTHONDONTWRITEBYTECODE: '1' } },
      );
  }
  if (input.bins.length)
    step(`Find ${input.bins.join(', ')}`, ['sh', '-c', BINS_SCRIPT, 'skilldock-bins', ...input.bins], { kind: 'bins', bins: [...input.bins] });
  if (input.anyBins.length) {
    step(`Find one of ${input.anyBins.join(', ')}`, ['sh', '-c', ANY_BINS_SCRIPT, 'skilldock-any-bins', ...input.anyBins], {
      kind: 'any-bins',
      bins: [...input.anyBins],
    });
  }
  for (let i = 0; i < input.files.length; i += FILES_PER_STEP) {
    const chunk = input.files.slice(i, i + FILES_PER_STEP);
    const args = chunk.flatMap((f) => [f.path, String(f.size), f.sha256 ?? '-']);
    step(`Check ${chunk.length} skill files are unchanged`, ['sh', '-c', FILES_SCRIPT, 'skilldock-files', input.skillDir, ...args], {
      kind: 'files',
      files: chunk.map((f) => f.path),
    });
  }
  return { steps, problems };
}

export interface StepResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut?: boolean;
}

export type VerificationFailure =
  | { code: 'missing_binary'; name: string; reason: string; detail: string }
  | { code: 'syntax_error'; file: string; line?: number; reason: string; detail: string }
  | { code: 'import_failed'; module: string; reason: string; detail: string }
  | { code: 'file_changed'; file: string; reason: string; detail: string }
  | { code: 'timeout'; reason: string; detail: string }
  | { code: 'step_failed'; reason: string; detail: string };

const firstLine = (text: string, pattern: RegExp) =>
  text
    .split('\n')
    .find((l) => pattern.test(l))
    ?.trim();

/** The typed reason of a failed verify step, from the interpreter's own output; null when it passed. */
export function verificationFailure(step: InstallStep, result: StepResult): VerificationFailure | null {
  if (result.exitCode === 0 && !result.timedOut) return null;
  const output = `${result.stdout}\n${result.stderr}`.slice(0, 64 * 1024);
  const detail = output.trim().split('\n').slice(-5).join('\n').slice(0, 2000);
  if (result.timedOut) return { code: 'timeout', reason: `timeout: ${step.title}`, detail };
  const check = step.check;
  switch (check?.kind) {
    case 'syntax': {
      const abs = step.argv[step.argv.length - 1];
      // py_compile's one-line form ("Sorry: …(name.py, line N)") names the file by its base name only.
      const line = syntaxLine(output, abs) ?? syntaxLine(output, `(${path.posix.basename(abs)}`);
      const message = firstLine(output, /^\w*Error: |Syntax error|syntax error|unexpected/) ?? detail.split('\n')[0] ?? '';
      const where = line === undefined ? check.file : `${check.file}:${line}`;
      return { code: 'syntax_error', file: check.file, ...(line === undefined ? {} : { line }), reason: `syntax_error: ${where}`, detail: message };
    }
    case 'imports': {
      const hit = output.split('\n').find((l) => l.startsWith('import_failed: '));
      const name = hit?.slice('import_failed: '.length).split(':')[0];
      const module = name && check.modules.includes(name) ? name : check.modules[0];
      return { code: 'import_failed', module, reason: `import_failed: ${module}`, detail: hit ?? detail };
    }
    case 'bins':
    case 'any-bins': {
      const hit = output.split('\n').find((l) => l.startsWith('missing: '));
      const name = hit?.slice('missing: '.length).trim();
      const shown = check.kind === 'bins' && name && check.bins.includes(name) ? name : check.bins.join(' | ');
      return { code: 'missing_binary', name: shown, reason: `missing_binary: ${shown}`, detail: hit ?? detail };
    }
    case 'files': {
      const hit = output.split('\n').find((l) => l.startsWith('file_changed: ') || l.startsWith('file_missing: '));
      const file = hit ? hit.slice(hit.indexOf(': ') + 2).trim() : check.files[0];
      return { code: 'file_changed', file, reason: `file_changed: ${file}`, detail: hit ?? detail };
    }
    default:
      return { code: 'step_failed', reason: `step_failed: ${step.title} (exit ${result.exitCode})`, detail };
  }
}

/**
 * The line number an interpreter reports right after the file's path: Python `File "<f>", line N`
 * or `(<f>, line N)`, Node `<f>:N`, dash `<f>: N:`, bash and busybox `<f>: line N:`.
 */
function syntaxLine(output: string, file: string): number | undefined {
  let from = 0;
  for (let i = 0; i < 20; i++) {
    const at = output.indexOf(file, from);
    if (at === -1) return undefined;
    from = at + file.length;
    const m = /^(?:", line |, line |: line |: |:)(\d{1,9})\b/.exec(output.slice(from, from + 40));
    if (m) return Number(m[1]);
  }
  return undefined;
}
