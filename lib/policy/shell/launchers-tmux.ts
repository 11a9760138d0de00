// tmux: listing sessions and reading panes runs nothing; starting a session, running a shell command
// or typing keys into a pane runs what the engine cannot read, so those are launchers.
/** tmux sub-commands that start a shell, run a command string or type keys into a pane. */
// process-wide: a constant table, never written
const TMUX_RUNS = new Set([
  'new-session',
  'new',
  'new-window',
  'neww',
  'split-window',
  'splitw',
  'send-keys',
  'send',
  'respawn-pane',
  'respawnp',
  'respawn-window',
  'respawnw',
  'run-shell',
  'run',
  'if-shell',
  'if',
  'pipe-pane',
  'pipep',
  'display-popup',
  'popup',
  'source-file',
  'source',
  'set-hook',
  'command-prompt',
  'confirm-before',
  'bind-key',
  'bind',
]);

/** tmux with no sub-command (a new session), `-c` (a shell command), or a sub-command of TMUX_RUNS; `;` chains are read too. */
export function tmuxRuns(argv: readonly string[]): boolean {
  let i = 1;
  for (; i < argv.length && argv[i].startsWith('-'); i++) {
    if (/^-[a-zA-Z0-9]*c/.test(argv[i])) return true;
    if (/^-[a-zA-Z0-9]*[fLST]$/.test(argv[i])) i++;
  }
  if (i >= argv.length) return true;
  return argv.slice(i).some((a, k) => (k === 0 || argv[i + k - 1] === ';' || argv[i + k - 1].endsWith('\\;')) && TMUX_RUNS.has(a));
}
