// Commands that run other commands from their arguments. The ones with a small grammar are
// unwrapped (their options are a table; an unknown option is refused) so the command they run is
// judged; the rest (debuggers, tracers, sandboxes, session and terminal tools, job runners, other
// shells) are refused by name: the command they run cannot be read off their arguments reliably.
import { tmuxRuns } from './launchers-tmux';
import { type OptionSpec, type ParsedOptions, parseOptions } from './wrapper-specs';

const spec = (s: Partial<OptionSpec>): OptionSpec => ({ shortArg: '', shortFlags: '', longArg: [], longFlags: [], ...s });

/** Option tables of the launchers that are unwrapped. */
export const LAUNCHER_SPECS: Record<string, OptionSpec> = {
  coproc: spec({}),
  unbuffer: spec({ shortFlags: 'p' }),
  chronic: spec({ shortFlags: 'ev' }),
  eatmydata: spec({}),
  nocache: spec({}),
  ifne: spec({ shortFlags: 'n' }),
  fakeroot: spec({
    shortArg: 'sib',
    shortFlags: 'u',
    longFlags: ['--unknown-is-real'],
    refuse: ['-l', '--lib', '--faked'],
    refuseWhy: 'loads or runs a program of its own',
  }),
  'dbus-run-session': spec({ longArg: ['--config-file'], refuse: ['--dbus-daemon'], refuseWhy: 'runs a program of its own' }),
  'xvfb-run': spec({
    shortArg: 'efnpsw',
    shortFlags: 'al',
    longArg: ['--error-file', '--auth-file', '--server-num', '--xauth-protocol', '--server-args', '--wait'],
    longFlags: ['--auto-servernum', '--listen-tcp'],
  }),
  flock: spec({
    shortArg: 'wE',
    shortFlags: 'sxeunoFv',
    longArg: ['--wait', '--timeout', '--conflict-exit-code'],
    longFlags: ['--shared', '--exclusive', '--unlock', '--nonblock', '--nb', '--close', '--no-fork', '--verbose'],
  }),
  taskset: spec({ shortFlags: 'acp', longFlags: ['--all-tasks', '--cpu-list', '--pid'] }),
  chrt: spec({
    shortArg: 'DPT',
    shortFlags: 'abdfimoprRv',
    longArg: ['--sched-runtime', '--sched-period', '--sched-deadline'],
    longFlags: ['--all-tasks', '--batch', '--deadline', '--fifo', '--idle', '--max', '--other', '--pid', '--rr', '--reset-on-fork', '--verbose'],
  }),
  watch: spec({
    shortArg: 'nq',
    shortFlags: 'bcCegprtwx',
    shortOptional: 'd',
    longArg: ['--interval', '--equexit'],
    longFlags: ['--beep', '--color', '--no-color', '--differences', '--errexit', '--chgexit', '--precise', '--no-rerun', '--no-title', '--no-wrap', '--exec'],
  }),
  script: spec({
    shortArg: 'cEBIOTmo',
    shortFlags: 'aefqV',
    shortOptional: 't',
    longArg: ['--command', '--echo', '--log-io', '--log-in', '--log-out', '--log-timing', '--logging-format', '--output-limit'],
    longFlags: ['--append', '--return', '--flush', '--force', '--quiet', '--timing'],
  }),
};

/** `uv run cmd`, `poetry run cmd`, `bundle exec cmd`: the verb after which a command follows. */
export const SUBCOMMAND_LAUNCHERS: Record<string, readonly string[]> = {
  uv: ['run'],
  poetry: ['run'],
  pipenv: ['run'],
  pdm: ['run'],
  hatch: ['run'],
  pixi: ['run', 'exec'],
  bundle: ['exec'],
  rbenv: ['exec'],
  pyenv: ['exec'],
  asdf: ['exec'],
  yarn: ['exec'],
};

/** Sub-command launchers whose command does not follow the verb directly: refused, never unwrapped. */
const SUBCOMMAND_REFUSED: Record<string, readonly string[]> = {
  conda: ['run'],
  mamba: ['run'],
  micromamba: ['run'],
  mise: ['exec', 'x'],
  direnv: ['exec'],
  nix: ['run', 'develop', 'shell'],
  flatpak: ['run'],
  snap: ['run'],
  ip: ['exec'],
};

/** Launchers refused by name (unless the profile lists them by name). */
// process-wide: a constant table, never written
export const LAUNCHERS: ReadonlySet<string> = new Set([
  // Debuggers, tracers, profilers.
  'gdb',
  'lldb',
  'strace',
  'ltrace',
  'valgrind',
  'perf',
  'catchsegv',
  'hyperfine',
  // Sandboxes, namespaces, users and groups.
  'firejail',
  'bwrap',
  'proot',
  'nsjail',
  'minijail0',
  'systemd-run',
  'systemd-nspawn',
  'machinectl',
  'sandbox-exec',
  'runcon',
  'su',
  'gosu',
  'su-exec',
  's6-setuidgid',
  'aa-exec',
  'cgexec',
  'runuser',
  'sg',
  'newgrp',
  'setpriv',
  'chroot',
  'nsenter',
  'unshare',
  'capsh',
  'sshpass',
  'setuidgid',
  'envuidgid',
  'chpst',
  // Scheduling and limits with rich grammars.
  'numactl',
  'prlimit',
  'cpulimit',
  'setarch',
  'linux32',
  'linux64',
  'schedtool',
  'softlimit',
  'faketime',
  'systemd-inhibit',
  'caffeinate',
  // Sessions, terminals, daemons, supervisors.
  'expect',
  'screen',
  'dtach',
  'xterm',
  'rlwrap',
  'winpty',
  'ssh-agent',
  'dbus-launch',
  'xinit',
  'startx',
  'start-stop-daemon',
  'daemonize',
  'tini',
  'dumb-init',
  // Job runners and watchers that run command strings.
  'parallel',
  'sem',
  'tsp',
  'nq',
  'retry',
  'run-one',
  'daemon',
  'hwloc-bind',
  'trickle',
  'pee',
  'entr',
  'watchexec',
  'nodemon',
  'concurrently',
  'npm-run-all',
  'run-p',
  'run-s',
  'env-cmd',
  'dotenv',
  'lckdo',
  'setlock',
  'envdir',
  'mpirun',
  'mpiexec',
  'srun',
  'nix-shell',
  // Network wrappers that run a command through a proxy.
  'proxychains',
  'proxychains4',
  'torsocks',
  'torify',
  'tsocks',
  // Shells whose language this engine does not read.
  'fish',
  'csh',
  'tcsh',
  'nu',
  'xonsh',
  'elvish',
  'rc',
  'es',
  'osh',
  'ysh',
  'oil',
  'scsh',
]);

/** What the launcher unwrap needs from a command: its option parse and what follows it. */
export type LauncherStep =
  /** The command starts at `at` (after the launcher's options and operands). */
  | { kind: 'run'; at: number; background?: boolean }
  /** A string the launcher hands to `sh -c`; the words `from`…`to` (exclusive) hold it. */
  | { kind: 'script'; text: string; from: number; to: number }
  /** The launcher runs nothing (`flock 9`, `taskset -p 1`): it is judged as itself. */
  | { kind: 'none' }
  /** The launcher starts an interactive shell that reads stdin. */
  | { kind: 'shell' }
  | { kind: 'fail'; reason: string; rule?: string };

/** How to unwrap one launcher of LAUNCHER_SPECS or SUBCOMMAND_LAUNCHERS; null when `name` is neither. */
export function launcherStep(name: string, argv: readonly string[]): LauncherStep | null {
  const verbs = SUBCOMMAND_LAUNCHERS[name];
  if (verbs) {
    // Only the plain form is unwrapped; options anywhere around the verb leave it a launcher.
    if (verbs.includes(argv[1] ?? '') && argv.length > 2 && !argv[2].startsWith('-')) return { kind: 'run', at: 2 };
    return null;
  }
  const s = LAUNCHER_SPECS[name];
  if (!s) return null;
  const o: ParsedOptions = parseOptions(argv, 1, s);
  if (!o.ok) return { kind: 'fail', reason: o.reason };
  const has = (...k: string[]) => k.some((x) => o.seen.includes(x));
  const rest = o.rest;
  const end = rest >= argv.length;
  switch (name) {
    case 'coproc':
      if (argv.slice(rest).some((a) => a === '{' || a === '(' || a === '}' || a === ')'))
        return { kind: 'fail', rule: 'unparseable', reason: 'a coproc of a compound command is not understood' };
      return end ? { kind: 'none' } : { kind: 'run', at: rest, background: true };
    case 'flock':
      // `flock FILE cmd …`, `flock FILE -c 'cmd'`, `flock FD`.
      if (argv[rest + 1] === '-c' || argv[rest + 1] === '--command') {
        if (rest + 3 !== argv.length) return { kind: 'fail', reason: '-c takes exactly one command string' };
        return { kind: 'script', text: argv[rest + 2], from: rest + 2, to: rest + 3 };
      }
      return rest + 1 < argv.length ? { kind: 'run', at: rest + 1 } : { kind: 'none' };
    case 'taskset':
      if (has('-p', '--pid')) return { kind: 'none' };
      return rest + 1 < argv.length ? { kind: 'run', at: rest + 1 } : { kind: 'none' };
    case 'chrt': {
      if (has('-p', '--pid', '-m', '--max') || end) return { kind: 'none' };
      const at = /^\d{1,4}$/.test(argv[rest]) ? rest + 1 : rest;
      return at < argv.length ? { kind: 'run', at } : { kind: 'none' };
    }
    case 'watch':
      if (end) return { kind: 'none' };
      // watch joins its arguments and hands them to `sh -c`, unless -x runs them as they are.
      return has('-x', '--exec') ? { kind: 'run', at: rest } : { kind: 'script', text: argv.slice(rest).join(' '), from: rest, to: argv.length };
    case 'script': {
      const text = o.values['-c'] ?? o.values['--command'];
      // Without -c, script starts an interactive shell.
      if (text === undefined) return { kind: 'shell' };
      return { kind: 'script', text, from: 1, to: rest };
    }
    case 'fakeroot':
      return end ? { kind: 'shell' } : { kind: 'run', at: rest };
    default:
      return end ? { kind: 'none' } : { kind: 'run', at: rest };
  }
}

/** The launcher a segment still starts with after unwrapping (`strace`, `uv run`), or null. */
export function launcherOf(argv: readonly string[]): string | null {
  if (!argv.length) return null;
  const name = argv[0].slice(argv[0].lastIndexOf('/') + 1).toLowerCase();
  if (LAUNCHERS.has(name)) return name;
  if (name === 'tmux') return tmuxRuns(argv) ? 'tmux' : null;
  const verbs = SUBCOMMAND_LAUNCHERS[name] ?? SUBCOMMAND_REFUSED[name];
  const verb = verbs?.find((v) => argv.slice(1).includes(v));
  return verb ? `${name} ${verb}` : null;
}
