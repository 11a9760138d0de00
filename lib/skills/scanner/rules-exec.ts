/**
 * Rules about running things: process execution from code, dynamic code, reverse shells, miners,
 * destructive deletes. Shell scripts run commands by nature, so plain commands are never flagged.
 */
import { type FindingSink, firstIndex, flagAll, isJs, isPython, isShellish, matches, type Pattern, type Segment, segMatches } from './model';
import { hasAny } from './prefilter';
import { anchored, anchoredWord } from './triggers';

const JS_MENTIONS_CHILD_PROCESS = /\bchild_process\b/;
const JS_BARE_EXEC = /(?<![\w$.])(?:exec|execSync|spawn|spawnSync|execFile|execFileSync)\s*\(/g;
/**
 * `x.execSync(` etc. on any receiver; `x.exec(` only on a child_process binding (RegExp#exec is everywhere).
 * Matched from the dot: the receiver is read backwards (see receiverBefore), as a leading `[\w$]+`
 * would rescan a long identifier from each of its characters.
 */
const JS_MEMBER_EXEC = /\.\s*(exec|execSync|spawn|spawnSync|execFile|execFileSync)\s*\(/g;
const MAX_RECEIVER = 200;

/** The identifier (or `)`) just before `dot`, across whitespace, and where it starts; null when none. */
function receiverBefore(code: string, dot: number): { name: string; start: number } | null {
  let i = dot;
  while (i > 0 && dot - i < MAX_RECEIVER && /\s/.test(code[i - 1])) i--;
  if (code[i - 1] === ')') return { name: ')', start: i - 1 };
  const end = i;
  while (i > 0 && end - i < MAX_RECEIVER && /[\w$]/.test(code[i - 1])) i--;
  return i < end ? { name: code.slice(i, end), start: i } : null;
}
const JS_CP_ALIAS =
  /(?:const|let|var)\s{1,100}([\w$]{1,100})\s{0,100}=\s{0,100}require\s{0,100}\(\s{0,100}['"](?:node:)?child_process['"]\s{0,100}\)|import\s{1,100}(?:\*\s{1,100}as\s{1,100})?([\w$]{1,100})\s{1,100}from\s{1,100}['"](?:node:)?child_process['"]/g;
const JS_RUNTIME_EXEC =
  /\bBun\s*\.\s*(?:spawn|spawnSync)\s*\(|\bBun\s*\.\s*\$\s*`|\bnew\s+Deno\s*\.\s*Command\s*\(|\bDeno\s*\.\s*run\s*\(|\bexeca(?:Sync|Command|CommandSync)?\s*\(/g;

const PY_EXEC = anchored(
  /\bsubprocess\s{0,100}\.\s{0,100}(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s{0,100}\(|\bos\s{0,100}\.\s{0,100}(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?)\s{0,100}\(|\bpty\s{0,100}\.\s{0,100}spawn\s{0,100}\(|\bcommands\s{0,100}\.\s{0,100}getoutput\s{0,100}\(|\basyncio\s{0,100}\.\s{0,100}create_subprocess_(?:exec|shell)\s{0,100}\(|^[ \t]*from\s{1,100}subprocess\s{1,100}import\b|__import__\s{0,100}\(\s{0,100}['"](?:os|subprocess|pty)['"]\s{0,100}\)/gm,
  ['subprocess', 'os', 'pty', 'commands', 'asyncio', '__import__'],
  { lineStarts: true },
);
const RUBY_EXEC = /(?<![\w.:])(?:system|exec|spawn)(?:\s*\(|[ \t]+['"$\w])|`[^`\n]{1,300}`|%x[({[]|\bIO\s*\.\s*popen\b|\bOpen3\s*\.\s*\w+/g;
const PERL_EXEC = /(?<![\w$])(?:system|exec)(?:\s*\(|[ \t]+['"$@\w])|\bqx\s*[({[/|!'"]|`[^`\n]{1,300}`/g;

const JS_DYNAMIC =
  /(?<![\w$.])eval\s{0,100}\(|\b(?:window|globalThis|global|self)\s{0,100}\.\s{0,100}eval\s{0,100}\(|\bnew\s{1,100}Function\s{0,100}\(|(?<![\w$.])Function\s{0,100}\(\s{0,100}['"`]|\bvm\s{0,100}\.\s{0,100}(?:runInNewContext|runInThisContext|runInContext|compileFunction)\s{0,100}\(|\bnew\s{1,100}vm\s{0,100}\.\s{0,100}Script\s{0,100}\(/g;
/** eval/exec/compile whose first argument is not a plain string literal (f-strings count as non-literal). */
const PY_DYNAMIC = /(?<![\w.])(?:eval|exec|compile)\s*\((?!\s*[rRbBuU]?['"])/g;
const SHELL_DYNAMIC = /(?<![\w-])eval\s+["']?\$\{?[A-Za-z_]/g;
const PS_DYNAMIC = /\b(?:Invoke-Expression|iex)\s*(?:\(\s*)?\$|\[ScriptBlock\]\s*::\s*Create\s*\(/gi;
const RUBY_DYNAMIC = /(?<![\w.])(?:eval|instance_eval|class_eval|module_eval)(?:\s*\(|\s)\s*(?!['"])/g;
const PERL_DYNAMIC = /(?<![\w$])eval\s*(?:\(\s*)?\$/g;

function jsExec(seg: Segment, sink: FindingSink): void {
  flagAll(sink, seg, 'dangerous-exec', 'critical', [[JS_RUNTIME_EXEC, 'Runs a process (Bun/Deno/execa).', ['bun', 'deno', 'execa']]]);
  if (!hasAny(seg, ['child_process']) || !JS_MENTIONS_CHILD_PROCESS.test(seg.code)) return;
  const aliases = new Set(['child_process']);
  for (const m of matches(JS_CP_ALIAS, seg.code)) aliases.add(m[1] ?? m[2]);
  for (const m of matches(JS_BARE_EXEC, seg.code)) sink.add(seg, 'dangerous-exec', 'critical', m.index, 'Runs a process through child_process.');
  for (const m of matches(JS_MEMBER_EXEC, seg.code)) {
    const receiver = receiverBefore(seg.code, m.index);
    if (!receiver) continue;
    const onChildProcess = aliases.has(receiver.name) || (receiver.name === ')' && lineOf(seg.code, receiver.start).includes('child_process'));
    if (m[1] !== 'exec' || onChildProcess) sink.add(seg, 'dangerous-exec', 'critical', receiver.start, 'Runs a process through child_process.');
  }
}

function lineOf(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset) + 1;
  const end = text.indexOf('\n', offset);
  return text.slice(start, end === -1 ? text.length : end);
}

export function execRules(seg: Segment, sink: FindingSink): void {
  if (isJs(seg)) {
    jsExec(seg, sink);
    flagAll(sink, seg, 'dynamic-code-execution', 'critical', [
      [JS_DYNAMIC, 'Evaluates code built at run time (eval / new Function / vm).', ['eval', 'function', 'vm']],
    ]);
  }
  if (isPython(seg)) {
    flagAll(sink, seg, 'dangerous-exec', 'critical', [
      [PY_EXEC, 'Runs a process (subprocess / os.system / os.popen / pty.spawn).', ['subprocess', 'os', 'pty', 'commands', '__import__']],
    ]);
    flagAll(sink, seg, 'dynamic-code-execution', 'critical', [
      [PY_DYNAMIC, 'eval/exec/compile on a value that is not a string literal.', ['eval', 'exec', 'compile']],
    ]);
  }
  if (seg.lang === 'ruby') {
    flagAll(sink, seg, 'dangerous-exec', 'critical', [[RUBY_EXEC, 'Runs a shell command (system / backticks / %x / popen).']]);
    flagAll(sink, seg, 'dynamic-code-execution', 'critical', [[RUBY_DYNAMIC, 'Evaluates code built at run time.']]);
  }
  if (seg.lang === 'perl') {
    flagAll(sink, seg, 'dangerous-exec', 'critical', [[PERL_EXEC, 'Runs a shell command (system / exec / qx / backticks).']]);
    flagAll(sink, seg, 'dynamic-code-execution', 'critical', [[PERL_DYNAMIC, 'Evaluates code held in a variable.']]);
  }
  if (isShellish(seg))
    flagAll(sink, seg, 'dynamic-code-execution', 'critical', [[SHELL_DYNAMIC, 'eval of a variable: runs whatever the variable holds.', ['eval']]]);
  if (seg.lang === 'powershell' || seg.lang === 'decoded') {
    flagAll(sink, seg, 'dynamic-code-execution', 'critical', [
      [PS_DYNAMIC, 'Invoke-Expression / ScriptBlock of a variable.', ['iex', 'invoke-expression', 'scriptblock']],
    ]);
  }
}

const REVERSE_LINE: Pattern[] = [
  [/\/dev\/(?:tcp|udp)\//g, 'Opens a raw connection through /dev/tcp (reverse-shell idiom).', ['/dev/tcp/', '/dev/udp/']],
  [
    { head: /\b(?:nc|ncat|netcat)(?:\.\w+)?\b/g, tail: /\s(?:-[a-zA-Z]*e\b|--(?:sh-|lua-)?exec\b)/g, gap: 120, stop: ';&|' },
    'netcat with -e/--exec hands a shell to a remote host.',
    ['nc'],
  ],
  [
    anchoredWord(/\b(?:ba|z|k)?sh\s+-i\b[^\n]{0,40}?[<>]&\s*(?:\d|%d|\$)/g, ['bash', 'zsh', 'ksh', 'sh']),
    'Interactive shell bound to a socket descriptor.',
    ['-i'],
  ],
  [
    { head: /\bmkfifo\b/g, tail: /\b(?:nc|ncat|netcat|telnet|openssl\s+s_client)\b/g, gap: 300 },
    'Named pipe wired to a network client (reverse shell).',
    ['mkfifo'],
  ],
  [/\bsocat\b[^\n]{0,300}?\b(?:exec|system):/gi, 'socat bridging a socket to a program.', ['socat']],
];
const SOCKET = /\bsocket\b|TCPSocket|IO::Socket/i;
const DUP_STDIO = /\bdup2\s*\(|\bopen\s*\(\s*STD(?:IN|OUT|ERR)\s*,\s*['"]?>&|\breopen\s*\(/g;
const SHELL_PROGRAM = /\/bin\/(?:ba|z|da)?sh\b|\bcmd\.exe\b|\bpty\s*\.\s*spawn\b|\[\s*['"](?:ba|z)?sh['"]/;
const JS_SOCKET = /\bnet\s*\.\s*(?:Socket|connect|createConnection)\b/;
const JS_SHELL_SPAWN =
  /(?<![\w$])(?:spawn|exec)\w{0,20}\s*\(\s*['"`](?:\/bin\/)?(?:ba|z)?sh\b|(?<![\w$])(?:spawn|exec)\w{0,20}\s*\(\s*['"`]cmd(?:\.exe)?['"`]/g;
const PS_TCP = /Net\.Sockets\.TCPClient/gi;

/** Reverse shells spread over several lines: checked per script or fenced block. */
export function reverseShellComboRules(seg: Segment, sink: FindingSink): void {
  const code = seg.code;
  if (hasAny(seg, ['socket']) && SOCKET.test(code) && SHELL_PROGRAM.test(code)) {
    const at = firstIndex(DUP_STDIO, code);
    if (at >= 0) sink.add(seg, 'reverse-shell', 'critical', at, 'Socket duplicated onto stdin/stdout with a shell (reverse shell).');
  }
  if (hasAny(seg, ['net']) && JS_SOCKET.test(code) && /\.pipe\s*\(/.test(code)) {
    const at = firstIndex(JS_SHELL_SPAWN, code);
    if (at >= 0) sink.add(seg, 'reverse-shell', 'critical', at, 'A shell process piped to a network socket (reverse shell).');
  }
  const tcp = hasAny(seg, ['net.sockets.tcpclient']) ? firstIndex(PS_TCP, code) : -1;
  if (tcp >= 0 && /GetStream\s*\(/i.test(code) && /\b(?:iex|Invoke-Expression)\b/i.test(code)) {
    sink.add(seg, 'reverse-shell', 'critical', tcp, 'TCP client whose input is run with Invoke-Expression (PowerShell reverse shell).');
  }
}

const MINING_WORDS = ['stratum+', 'coinhive', 'cryptonight', 'xmrig', 'minerd', 'cpuminer'];
const MINING = /stratum\+(?:tcp|ssl|tls):\/\/|\bcoinhive\b|\bcryptonight\b|\bxmrig\b|\bminerd\b|\bcpuminer\b/gi;

/** Found by its rare tail `& }` first; the full shape is then checked in the 80 chars before. */
const FORK_BOMB_TAIL = anchored(/&\s*\}/g, ['&']);
const FORK_BOMB = /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}|\b([A-Za-z_]\w{0,30})\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}/g;
const RM = anchoredWord(/(?<![\w-])rm\s+([^\n;&|)]{1,200})/g, ['rm']);
const RM_DANGEROUS_TARGET = /^(?:\/\*?|~\/?\*?|\$\{?HOME\}?\/?\*?|\/(?:bin|boot|etc|home|lib|lib64|opt|root|sbin|srv|usr|var|Users|System)\/?\*?)$/;
const DESTRUCTIVE: Pattern[] = [
  [/(?<![\w.-])mkfs(?:\.\w+)?\s+\S/g, 'Formats a filesystem (mkfs).', ['mkfs']],
  [/\bdd\b[^\n;&|]{0,200}?\bof=\/dev\/(?:sd[a-z]|nvme\d|hd[a-z]|disk\d|mmcblk\d|xvd[a-z]|vd[a-z])/g, 'dd writing straight to a disk device.', ['of=/dev/']],
  [
    /\bRemove-Item\b[^\n]{0,120}?-Recurse[^\n]{0,120}?\s['"]?(?:[A-Za-z]:\\?|\$env:(?:USERPROFILE|HOMEDRIVE)|~)['"]?(?:\s|$)/gi,
    'Recursively deletes a drive or the home folder.',
    ['remove-item'],
  ],
  [
    /\bshutil\s{0,100}\.\s{0,100}rmtree\s{0,100}\(\s{0,100}(?:['"](?:\/|~\/?)['"]|os\.path\.expanduser\(\s{0,100}['"]~\/?['"]\s{0,100}\)|(?:pathlib\.)?Path\.home\(\))\s{0,100}[,)]/g,
    'Recursively deletes / or the home folder.',
    ['rmtree'],
  ],
];

function rmIsDestructive(args: string): boolean {
  const words = args
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/^['"]|['"]$/g, ''));
  let recursive = false;
  let target = false;
  for (const w of words) {
    if (/^-[a-zA-Z]*[rR]/.test(w) || w === '--recursive') recursive = true;
    else if (!w.startsWith('-') && RM_DANGEROUS_TARGET.test(w)) target = true;
  }
  return recursive && target;
}

/** Line-level rules that hold in any text, Markdown prose included. */
export function destructiveAndMiningRules(seg: Segment, sink: FindingSink): void {
  flagAll(sink, seg, 'reverse-shell', 'critical', REVERSE_LINE);
  flagAll(sink, seg, 'crypto-mining', 'critical', [[MINING, 'Cryptocurrency miner or mining pool reference.', MINING_WORDS]]);
  if (seg.code.includes('&')) {
    for (const m of segMatches(seg, FORK_BOMB_TAIL)) {
      const from = Math.max(0, m.index - 80);
      FORK_BOMB.lastIndex = 0;
      const bomb = FORK_BOMB.exec(seg.code.slice(from, m.index + m[0].length));
      if (bomb) sink.add(seg, 'destructive-delete', 'critical', from + bomb.index, 'Fork bomb: exhausts the process table.');
    }
  }
  flagAll(sink, seg, 'destructive-delete', 'warn', DESTRUCTIVE);
  if (!hasAny(seg, ['rm'])) return;
  for (const m of segMatches(seg, RM)) {
    if (rmIsDestructive(m[1])) sink.add(seg, 'destructive-delete', 'warn', m.index, 'Recursive delete of /, the home folder or a system folder.');
  }
}
