// A terminal on a backend without Skilldock's control kit (E2B, CubeSandbox): every shell carries a
// per-session marker in its env, and the end runs a second exec that kills each process bearing
// the marker and every process of their sessions: job control gives each pipeline its own process
// group, but they all stay in the shell's session, and a process that drops the marker with
// `env -i` stays in it too. It runs the sandbox's own `sh`, so it is only as trustworthy as the
// sandbox; Docker sandboxes use the kit instead. The marker is also set on Docker terminals, where
// it only labels their processes.

export const TERMINAL_ID_ENV = 'SKILLDOCK_TERMINAL_ID';

// $1 is the marker value; it is passed as an argument, never spliced into the script. Exit 0: none
// remains; exit 3: some survived 20 rounds.
export const TERMINAL_KILL_SCRIPT = `
mark="${TERMINAL_ID_ENV}=$1"
field() { sed 's/.*) //' "$1/stat" 2>/dev/null | cut -d' ' -f"$2"; }
self=$(field /proc/$$ 4)
round=0
while :; do
  sids=" "; targets=""
  for d in /proc/[0-9]*; do
    if tr '\\0' '\\n' <"$d/environ" 2>/dev/null | grep -qxF "$mark"; then
      targets="$targets \${d#/proc/}"
      s=$(field "$d" 4)
      case "$s" in ""|0|1|"$self") ;; *) sids="$sids$s " ;; esac
    fi
  done
  for d in /proc/[0-9]*; do
    s=$(field "$d" 4)
    case "$sids" in *" $s "*) targets="$targets \${d#/proc/}" ;; esac
  done
  [ -z "$targets" ] && exit 0
  round=$((round + 1))
  [ "$round" -gt 20 ] && exit 3
  kill -KILL $targets 2>/dev/null
  sleep 0.1 2>/dev/null || sleep 1
done
`;

/** The exec that kills every process of one terminal session (run with a normal, non-TTY exec). */
export function terminalKillArgv(sessionId: string): string[] {
  return ['sh', '-c', TERMINAL_KILL_SCRIPT, 'skilldock-terminal-kill', sessionId];
}
