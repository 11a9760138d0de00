// The option grammar of the commands that run another command. An option a table does not know
// is refused: guessing whether it takes a value would shift which word is judged as the command.

export interface OptionSpec {
  /** Short options taking a value (`-u root`, `-uroot`). */
  shortArg: string;
  /** Short options without a value. */
  shortFlags: string;
  /** Long options taking a value (`--user root`, `--user=root`). */
  longArg: string[];
  /** Long options without a value (`--foreground`; `--x=value` forms are accepted too). */
  longFlags: string[];
  /** Short options whose value is optional and only glued (`xargs -i{}`, `-e` eof). */
  shortOptional?: string;
  /** Options that make the wrapper unjudgeable (`env -S` splits a string into a command). */
  refuse?: string[];
  /** Why the refused options are refused (default: they hand over a string split into a command). */
  refuseWhy?: string;
  /** Leading bare numbers are options (`nice -5`). */
  numericFlag?: boolean;
}

const spec = (s: Partial<OptionSpec>): OptionSpec => ({ shortArg: '', shortFlags: '', longArg: [], longFlags: [], ...s });

export const WRAPPERS: Record<string, OptionSpec> = {
  env: spec({
    shortArg: 'uCP',
    shortFlags: 'i0v',
    longArg: ['--unset', '--chdir'],
    longFlags: ['--ignore-environment', '--null', '--debug', '--default-signal', '--ignore-signal', '--block-signal', '--list-signal-handling'],
    refuse: ['-S', '--split-string'],
  }),
  'cross-env': spec({}),
  nice: spec({ shortArg: 'n', longArg: ['--adjustment'], numericFlag: true }),
  nohup: spec({}),
  timeout: spec({ shortArg: 'sk', shortFlags: 'v', longArg: ['--signal', '--kill-after'], longFlags: ['--preserve-status', '--foreground', '--verbose'] }),
  stdbuf: spec({ shortArg: 'ioe', longArg: ['--input', '--output', '--error'] }),
  setsid: spec({ shortFlags: 'cfw', longFlags: ['--ctty', '--fork', '--wait'] }),
  time: spec({ shortArg: 'fo', shortFlags: 'pav', longArg: ['--format', '--output'], longFlags: ['--portability', '--append', '--verbose', '--quiet'] }),
  ionice: spec({ shortArg: 'cn', shortFlags: 't', longArg: ['--class', '--classdata'], longFlags: ['--ignore'] }),
  xargs: spec({
    shortArg: 'adELnPsI',
    shortFlags: '0rtpxo',
    shortOptional: 'eil',
    longArg: ['--arg-file', '--delimiter', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--replace', '--process-slot-var', '--eof'],
    longFlags: ['--null', '--no-run-if-empty', '--verbose', '--interactive', '--exit', '--open-tty', '--show-limits'],
  }),
  command: spec({ shortFlags: 'p' }),
  builtin: spec({}),
  exec: spec({ shortArg: 'a', shortFlags: 'cl' }),
  sudo: spec({
    shortArg: 'CDghpRrTtUu',
    shortFlags: 'AbEeHiKklnPSsVv',
    longArg: ['--close-from', '--chdir', '--group', '--host', '--prompt', '--chroot', '--role', '--command-timeout', '--type', '--other-user', '--user'],
    longFlags: [
      '--askpass',
      '--background',
      '--preserve-env',
      '--edit',
      '--set-home',
      '--login',
      '--remove-timestamp',
      '--reset-timestamp',
      '--list',
      '--non-interactive',
      '--preserve-groups',
      '--stdin',
      '--shell',
      '--validate',
    ],
  }),
  doas: spec({ shortArg: 'uCa', shortFlags: 'nsL' }),
  pkexec: spec({ longArg: ['--user'], longFlags: ['--disable-internal-agent', '--keep-cwd'] }),
  run0: spec({
    shortArg: 'uDg',
    longArg: ['--user', '--chdir', '--group', '--unit', '--property', '--description', '--slice', '--nice', '--setenv', '--background'],
  }),
};

/** Commands that run the rest of their arguments as another user. */
// process-wide: a constant table, never written
export const PRIVILEGE_WRAPPERS = new Set(['sudo', 'doas', 'pkexec', 'run0']);

/** Shells whose `-c` string (or heredoc, or here-string) is parsed again. */
// process-wide: a constant table, never written
export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'mksh', 'yash', 'rbash']);

export const SHELL_SPEC = spec({
  shortArg: 'oO',
  shortFlags: 'abcefhiklmnprstuvxBCEHPT',
  longArg: ['--rcfile', '--init-file'],
  longFlags: ['--login', '--norc', '--noprofile', '--posix', '--restricted', '--verbose', '--noediting', '--debugger', '--dump-strings', '--pretty-print'],
});

/** `values` holds the value of each option that takes one (the last one given wins). */
export type ParsedOptions = { ok: true; rest: number; seen: string[]; values: Record<string, string> } | { ok: false; reason: string };

/**
 * Walks the options of `args` from `start` (POSIX style: they end at the first operand or `--`).
 * `rest` is the index of the first operand.
 */
export function parseOptions(args: readonly string[], start: number, s: OptionSpec): ParsedOptions {
  const seen: string[] = [];
  const values: Record<string, string> = {};
  let i = start;
  while (i < args.length) {
    const a = args[i];
    if (a === '--') return { ok: true, rest: i + 1, seen, values };
    if (!a.startsWith('-') || a === '-') break;
    if (s.numericFlag && /^-\d{1,6}$/.test(a)) {
      seen.push(a);
      i++;
      continue;
    }
    if (a.startsWith('--')) {
      const [key] = a.split('=', 1);
      if (s.refuse?.includes(key)) return { ok: false, reason: `"${key}" ${s.refuseWhy ?? 'hands a string to be split into a command'}` };
      if (s.longArg.includes(key)) {
        seen.push(key);
        values[key] = a.includes('=') ? a.slice(key.length + 1) : (args[i + 1] ?? '');
        i += a.includes('=') ? 1 : 2;
        continue;
      }
      if (s.longFlags.includes(key)) {
        seen.push(key);
        i++;
        continue;
      }
      return { ok: false, reason: `the option "${key}" is not known` };
    }
    // A cluster of short options: `-iv`, `-n5`, `-uroot`.
    let j = 1;
    let consumed = 1;
    while (j < a.length) {
      const c = a[j];
      if (s.refuse?.includes(`-${c}`)) return { ok: false, reason: `"-${c}" ${s.refuseWhy ?? 'hands a string to be split into a command'}` };
      seen.push(`-${c}`);
      if (s.shortArg.includes(c)) {
        values[`-${c}`] = j === a.length - 1 ? (args[i + 1] ?? '') : a.slice(j + 1);
        if (j === a.length - 1) consumed = 2;
        break;
      }
      if (s.shortOptional?.includes(c)) break;
      if (!s.shortFlags.includes(c)) return { ok: false, reason: `the option "-${c}" is not known` };
      j++;
    }
    i += consumed;
  }
  return { ok: true, rest: i, seen, values };
}
