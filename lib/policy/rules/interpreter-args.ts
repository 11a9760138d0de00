// Arguments that turn a harmless-looking tool into a code runner: inline interpreter code
// (`python3 -c`, `node -e`), tools that run another program (`find -exec`, `git -c`, `tar
// --to-command`), package managers that install (they run install scripts). A script file
// (`python3 run.py`) is the auditable form and stays allowed.
import path from 'node:path';
import { parseOptions, SHELL_SPEC, SHELLS } from '../shell/wrapper-specs';
import type { Segment } from '../shell/wrappers';
import { baseName } from '../shell/wrappers';
import { registryInstall } from './package-installs';

export interface InterpreterFinding {
  ruleId: string;
  reason: string;
  /** A package install: the package_install group (approval) decides it when that group is on. */
  packageVerb?: boolean;
  /** Code written in the command itself: the profile's inlineCode setting decides it. */
  inline?: boolean;
}

/** Modules that serve the sandbox on a port or hand over a shell: never judged as ordinary code. */
const PYTHON_MODULES_REFUSED = /^(?:http\.server|SimpleHTTPServer|CGIHTTPServer|smtpd|aiosmtpd|pty|code|xmlrpc\.server|ftplib|telnetlib|webbrowser)$/;

const PYTHON = /^(?:python|pypy)(?:\d+(?:\.\d+)?)?$/;
/** Options of python that take a value (the value is not the script). */
// process-wide: a constant table, never written
const PYTHON_VALUE = new Set(['W', 'X', 'Q']);

/** Inline code or a module run by python: a `-c`/`-m` option before the script, or code on stdin. */
function python(argv: readonly string[]): InterpreterFinding | null {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-') return { ruleId: 'python.stdin', reason: 'python reads its program from stdin.' };
    if (!a.startsWith('-') || a === '--') return null;
    if (a.startsWith('--')) continue;
    for (let j = 1; j < a.length; j++) {
      const c = a[j];
      if (c === 'c') return { ruleId: 'python.c', reason: `python ${a} runs inline code.`, inline: true };
      if (c === 'm') {
        const mod = j + 1 < a.length ? a.slice(j + 1) : (argv[i + 1] ?? '');
        const pip = mod === 'pip' || mod.startsWith('pip.') || mod === 'ensurepip';
        if (pip) return { ruleId: 'python.m_pip', reason: `python -m ${mod} runs pip.`, packageVerb: /\binstall\b/.test(argv.join(' ')) };
        if (PYTHON_MODULES_REFUSED.test(mod)) return { ruleId: 'python.m', reason: `python -m ${mod} serves a port or hands over a shell.` };
        return { ruleId: 'python.m', reason: `python -m ${mod} runs a module.`, inline: true };
      }
      if (PYTHON_VALUE.has(c)) {
        if (j === a.length - 1) i++;
        break;
      }
    }
  }
  return null;
}

const NODE_INLINE = ['-e', '--eval', '-p', '--print', '-r', '--require', '--import', '--loader', '--experimental-loader'];

function node(argv: readonly string[]): InterpreterFinding | null {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-' || a === '--') return a === '-' ? { ruleId: 'node.stdin', reason: 'node reads its program from stdin.' } : null;
    if (!a.startsWith('-')) return null;
    const key = a.split('=', 1)[0];
    // Prefix match: `-e'code'` glued to its option is still -e.
    const hit = NODE_INLINE.find((o) => key === o || (o.length === 2 && key.startsWith(o)));
    if (hit)
      return {
        ruleId: `node.${hit.replace(/^-+/, '')}`,
        reason: `node ${hit} runs inline code or preloads a module.`,
        inline: /^-(?:e|-eval|p|-print)$/.test(hit),
      };
  }
  return null;
}

/** Interpreters whose one inline-code option is refused: name → options. */
const INLINE: Record<string, string[]> = {
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  lua: ['-e'],
  bun: ['-e', '--eval', '-p', '--print'],
  deno: ['eval'],
  vim: ['-c', '--cmd'],
  emacs: ['--eval', '-eval', '--execute', '-x', '--load', '-l', '--funcall', '-f'],
  nvim: ['-c', '--cmd'],
};

const VERBS: Record<string, { verbs: string[]; package?: string[] }> = {
  pip: { verbs: ['install', 'download'], package: ['install'] },
  npm: { verbs: ['exec', 'install', 'i', 'add', 'ci', 'x'], package: ['install', 'i', 'add', 'ci'] },
  cargo: { verbs: ['install'], package: ['install'] },
  pnpm: { verbs: ['dlx', 'exec'] },
  yarn: { verbs: ['dlx'] },
};

function firstOperand(argv: readonly string[]): string | undefined {
  return argv.slice(1).find((a) => !a.startsWith('-'));
}

export function interpreterFindings(seg: Segment, stdin = false): InterpreterFinding[] {
  const { argv } = seg;
  if (!argv.length) return [];
  const name = baseName(argv[0]);
  const out: InterpreterFinding[] = [];
  const add = (f: InterpreterFinding | null) => f && out.push(f);
  // Named packages from the default registry: judged as a medium-risk change, not as code to read.
  if (registryInstall(argv)) return out;
  if (PYTHON.test(name)) add(python(argv));
  else if (name === 'node' || name === 'nodejs') add(node(argv));
  else if (name === 'find') {
    const hit = argv.find((a) => a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir');
    if (hit) add({ ruleId: 'find.exec', reason: `find ${hit} runs a command for each file.` });
  } else if (name === 'fd' || name === 'fdfind') {
    const hit = argv.find((a) => /^-[a-zA-Z]{0,8}[xX]$/.test(a) || a === '--exec' || a === '--exec-batch' || a.startsWith('--exec='));
    if (hit) add({ ruleId: 'fd.exec', reason: `fd ${hit} runs a command for each file.` });
  } else if (name === 'git') {
    for (let i = 1; i < argv.length; i++) {
      const a = argv[i];
      if (a === '-c' || a.startsWith('--config-env') || a.startsWith('--exec-path=')) {
        add({ ruleId: 'git.c', reason: `git ${a} sets configuration that can run programs (core.pager, core.sshCommand).` });
        break;
      }
      if (a === '-C' || a === '--git-dir' || a === '--work-tree') i++;
      else if (!a.startsWith('-')) {
        if (a.startsWith('config') || a.startsWith('alias')) add({ ruleId: 'git.config', reason: `git ${a} changes configuration that can run programs.` });
        break;
      }
    }
  } else if (name === 'pip' || /^pip\d(?:\.\d+)?$/.test(name) || name === 'npm' || name === 'cargo' || name === 'pnpm' || name === 'yarn') {
    const table = VERBS[name.startsWith('pip') ? 'pip' : name];
    const v = firstOperand(argv);
    if (v && table.verbs.includes(v))
      add({
        ruleId: `${name.startsWith('pip') ? 'pip' : name}.${v}`,
        reason: `${name} ${v} runs code from a package.`,
        packageVerb: table.package?.includes(v),
      });
  } else if (name === 'npx' || name === 'bunx' || name === 'pnpx') add({ ruleId: `${name}.run`, reason: `${name} downloads and runs a package.` });
  else if (name in INLINE) {
    const hit = argv.slice(1).find((a) => INLINE[name].some((o) => a === o || (o.length === 2 && o.startsWith('-') && a.startsWith(o))));
    if (hit) add({ ruleId: `${name}.inline`, reason: `${name} ${hit} runs inline code.`, inline: !['vim', 'nvim', 'emacs'].includes(name) });
  } else if (name === 'tar' || name === 'gtar') {
    // GNU tar takes any unambiguous prefix of a long option (`--checkpoint-act=exec=…`).
    const RUNS = ['--to-command', '--checkpoint-action', '--use-compress-program', '--info-script', '--new-volume-script', '--rsh-command', '--rmt-command'];
    const hit = argv.find((a) => {
      const key = a.split('=', 1)[0];
      return (
        (key.length > 4 && key !== '--checkpoint' && RUNS.some((o) => o.startsWith(key))) ||
        /^-[a-zA-Z]*[IF]/.test(a) ||
        (/^[a-zA-Z]+$/.test(a) && a === argv[1] && /[IF]/.test(a))
      );
    });
    if (hit) add({ ruleId: 'tar.command', reason: `tar ${hit.split('=')[0]} runs a program.` });
  } else if (name === 'rsync') {
    const hit = argv.find((a) => a === '-e' || a.startsWith('--rsh') || a.startsWith('--rsync-path'));
    if (hit) add({ ruleId: 'rsync.rsh', reason: `rsync ${hit.split('=')[0]} runs a program.` });
  } else if (name === 'zip') {
    const hit = argv.find((a) => a === '-TT' || a.startsWith('--unzip-command'));
    if (hit) add({ ruleId: 'zip.unzip_command', reason: `zip ${hit} runs a program.` });
  } else if (name === 'awk' || name === 'gawk' || name === 'mawk' || name === 'nawk' || name === 'busybox-awk') {
    // Every argument: `-v x=1 'BEGIN{system(…)}'` puts the program after an option value.
    if (argv.slice(1).some((a) => /system\s*\(|\|\s*getline|\|&|print[^|]{0,200}\|/.test(a)))
      add({ ruleId: 'awk.system', reason: 'the awk program runs commands.' });
  }
  if (!out.length) add(stdinProgram(seg, stdin));
  return out;
}

/** Interpreters whose first operand is a script file (for write-then-run). */
// process-wide: a constant table, never written
export const SCRIPT_RUNNERS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'ash',
  'node',
  'nodejs',
  'perl',
  'ruby',
  'php',
  'lua',
  'bun',
  'deno',
  'tsx',
  'ts-node',
  'source',
  '.',
  'Rscript',
  'julia',
]);
export const isScriptRunner = (name: string) => SCRIPT_RUNNERS.has(name) || PYTHON.test(name);

/** The script operand of an interpreter: after the options, skipping the values of those that take one. */
export function scriptOperand(name: string, argv: readonly string[]): string | undefined {
  if (SHELLS.has(name)) {
    const o = parseOptions(argv, 1, SHELL_SPEC);
    if (o.ok) return o.seen.includes('-c') ? undefined : argv[o.rest];
  }
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return argv[i + 1];
    if (/^-[WXQ]$/.test(a)) i++;
    else if (!a.startsWith('-') || a === '-') return a;
  }
  return undefined;
}

/** `-`, /dev/stdin, /dev/fd/0, /proc/<pid>/fd/0 in any spelling: the program comes from stdin. */
export function isStdinPath(p: string): boolean {
  if (p === '-') return true;
  if (!p.startsWith('/')) return false;
  const n = path.posix.normalize(p);
  return n === '/dev/stdin' || n === '/dev/fd/0' || /^\/proc\/(?:self|thread-self|\d{1,10})\/(?:task\/\d{1,10}\/)?fd\/0$/.test(n);
}

/** The program file of awk or sed given with -f (`awk -f -`, `sed --file=/dev/stdin`). */
function programFiles(name: string, argv: readonly string[]): string[] {
  if (!/^(?:g|m|n)?awk$|^busybox-awk$|^g?sed$/.test(name)) return [];
  const out: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-f' || a === '--file') out.push(argv[++i] ?? '');
    else if (a.startsWith('--file=')) out.push(a.slice(7));
    else if (/^-f./.test(a)) out.push(a.slice(2));
  }
  return out;
}

/** Code the engine cannot read: a program taken from stdin by an interpreter, awk or sed. */
export function stdinProgram(seg: Segment, stdin: boolean): InterpreterFinding | null {
  const { argv } = seg;
  if (!argv.length) return null;
  const name = baseName(argv[0]);
  const files = programFiles(name, argv);
  if (files.some(isStdinPath)) return { ruleId: 'stdin.script', reason: `${name} reads its program from stdin (${files.find(isStdinPath)}).` };
  if (!isScriptRunner(name)) return null;
  const operand = name === 'source' || name === '.' ? argv[1] : scriptOperand(name, argv);
  if (operand !== undefined && isStdinPath(operand)) return { ruleId: 'stdin.script', reason: `${name} runs ${operand}: the program comes from stdin.` };
  // A shell or an interpreter given no script runs what it is fed: a pipe, a heredoc, a file, the exec's stdin.
  const fed = stdin || seg.pipe.index > 0 || seg.redirects.some((r) => r.body !== undefined || r.op === '<');
  const hasOperand = argv.slice(1).some((a) => !a.startsWith('-'));
  if (seg.readsStdin || (fed && !hasOperand && name !== 'source' && name !== '.'))
    return { ruleId: 'stdin.code', reason: `${name} runs the code it reads on stdin.` };
  return null;
}
