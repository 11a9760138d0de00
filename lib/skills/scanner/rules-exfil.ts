/**
 * Data leaving the machine: credential stores read (warn), the whole environment or a credential
 * store combined with a network send (critical `env-harvesting`), and file reads combined with a
 * network send (warn `potential-exfiltration`).
 */
import { envReads } from './env';
import { type FindingSink, flagAll, isShellish, type Lang, lineIndexAt, matches, matchStarts, type Pattern, type Segment, segFirstIndex } from './model';
import type { Near } from './near';
import { hasAny } from './prefilter';
import { anchored, anchoredWord } from './triggers';

const NOT_PUBLIC_KEY = String.raw`(?![\w.\/-]*\.pub\b)`;
const CREDENTIAL_FILES = String.raw`(?:\.ssh\/|\.aws\/credentials|\.netrc|\.git-credentials|\.kube\/config|\.docker\/config\.json)`;

/** Using a key (ssh -i, IdentityFile, ssh-add) is not reading it. */
const NOT_KEY_USE = String.raw`(?<!(?:-i|--identity(?:-file)?|IdentityFile|ssh-add|-o\s*IdentityFile=?)[\s=]{1,5}['"]?)`;

const CREDENTIAL: Pattern[] = [
  [
    new RegExp(
      String.raw`${NOT_KEY_USE}(?:~|\$\{?HOME\}?|\/root|\/home\/[\w.-]+|%USERPROFILE%|\$env:USERPROFILE)[\/\\]\.ssh\b(?!\/(?:known_hosts|config)\b)${NOT_PUBLIC_KEY}`,
      'g',
    ),
    'Reads the SSH keys folder.',
    ['.ssh'],
  ],
  [
    new RegExp(String.raw`['"\`]\.ssh['"\`]\s*[,)]|${NOT_KEY_USE}(?:[~\/.]|\$\{?HOME\}?)[\w\/.-]{0,100}\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)`, 'g'),
    'Reads an SSH private key.',
    ['.ssh', 'id_'],
  ],
  [/\.aws\/credentials\b|['"`]\.aws['"`]\s*,\s*['"`]credentials['"`]/g, 'Reads the AWS credentials file.', ['.aws']],
  [
    /\.netrc\b|\.git-credentials\b|\.docker\/config\.json\b|\.kube\/config\b|\.config\/gcloud\b|\.pgpass\b/g,
    'Reads a credential file.',
    ['.netrc', '.git-credentials', '.docker/', '.kube/', 'gcloud', '.pgpass'],
  ],
  [
    anchoredWord(
      /(?:(?<![\w.-])(?:cat|less|more|head|tail)\s{1,100}|\b(?:open|readFile(?:Sync)?|read_text|File\.read|Get-Content)\s{0,100}\(?\s{0,100}['"`]?)(?:\.\/)?\.env(?![\w.-])/g,
      ['cat', 'less', 'more', 'head', 'tail', 'open', 'readfile', 'read_text', 'file.read', 'get-content'],
    ),
    'Reads a .env file.',
    ['.env'],
  ],
  [
    /cookies\.sqlite\b|\blogins\.json\b|\bkey4\.db\b|\bLogin Data\b|(?:Chrome|Chromium|BraveSoftware|Edge|Firefox)[^\n]{0,80}?[/\\]Cookies\b/g,
    'Reads a browser cookie or password store.',
    ['cookies', 'logins.json', 'key4.db', 'login data'],
  ],
  [
    /\bsecurity\s+(?:find-(?:generic|internet)-password|dump-keychain)\b|\.keychain(?:-db)?\b|\bsecret-tool\s+lookup\b/g,
    'Reads the system keychain.',
    ['security', 'keychain', 'secret-tool'],
  ],
];

const NET_CLIENTS = ['curl', 'wget', 'nc', 'socat', 'telnet'];
/** `| stage | stage | client`: the data flows into the network client through pipes only (no `;`, `&&`, `||`). */
const PIPED_TO_CLIENT = String.raw`\s*(?<!\|)\|(?!\|)(?:[^\n|;&]{0,200}(?<!\|)\|(?!\|)){0,4}\s*(?:sudo\s+)?(?:curl|wget|nc|ncat|netcat|socat|telnet)\b`;

/** What every match of PIPED_TO_CLIENT holds: its last pipe into the client. A cheap first check. */
const PIPE_INTO_CLIENT = anchored(/\|\s*(?:sudo\s+)?(?:curl|wget|nc|ncat|netcat|socat|telnet)\b/g, ['|']);

/** Matches hold PIPED_TO_CLIENT. */
const SHELL_HARVEST_PIPED: Pattern[] = [
  [
    new RegExp(
      String.raw`(?<![\w./-])(?:(?:env|printenv)(?:\s+-[\w-]+)*|set|export\s+-p|declare\s+-x|cat\s+\/proc\/(?:self|\d+|\$\$)\/environ)${PIPED_TO_CLIENT}`,
      'g',
    ),
    'Pipes the whole environment to a network client.',
    NET_CLIENTS,
  ],
  [
    new RegExp(String.raw`(?<![\w.-])(?:cat|tar|zip|base64|gzip|xxd)\b[^\n|;&]{0,200}?${CREDENTIAL_FILES}[^\n|;&]{0,100}${PIPED_TO_CLIENT}`, 'g'),
    'Pipes a credential file to a network client.',
    ['.ssh/', '.aws/', '.netrc', '.git-credentials', '.kube/', '.docker/'],
  ],
];
const SHELL_HARVEST: Pattern[] = [
  [
    anchoredWord(/(?<![\w.-])(?:curl|wget)\b[^\n]{0,300}?(?:\$\(|`|<\()\s*(?:env|printenv)\b/g, ['curl', 'wget']),
    'Sends the output of env/printenv over the network.',
    ['curl', 'wget'],
  ],
  [
    anchoredWord(
      new RegExp(
        String.raw`(?<![\w.-])(?:curl|wget)\b[^\n]{0,300}?(?:-d|--data[\w-]*|-F|--form|-T|--upload-file|--post-file)[=\s]+['"]?(?:[\w.-]*=)?@?(?:~|\$\{?HOME\}?)\/\.(?:ssh|aws|netrc|git-credentials|kube|docker)\b${NOT_PUBLIC_KEY}`,
        'g',
      ),
      ['curl', 'wget'],
    ),
    'Uploads a credential file.',
    ['curl', 'wget'],
  ],
];

const JS_WHOLE_ENV = /\bprocess\s*\.\s*env\b(?!\s*(?:\??\.\s*[A-Za-z_$]|\[\s*['"`]))/g;
const PY_WHOLE_ENV =
  /\bdict\s{0,100}\(\s{0,100}os\s{0,100}\.\s{0,100}environ\s{0,100}\)|\bos\s{0,100}\.\s{0,100}environ\s{0,100}\.\s{0,100}(?:items|keys|values)\s{0,100}\(|\bjson\s{0,100}\.\s{0,100}dumps?\s{0,100}\(\s{0,100}(?:dict\s{0,100}\(\s{0,100})?os\s{0,100}\.\s{0,100}environ\b|\b(?:str|repr)\s{0,100}\(\s{0,100}os\s{0,100}\.\s{0,100}environ\s{0,100}\)|\*\*\s{0,100}os\s{0,100}\.\s{0,100}environ\b|\bfor\s{1,100}\w{1,100}(?:\s{0,100},\s{0,100}\w{1,100})?\s{1,100}in\s{1,100}os\s{0,100}\.\s{0,100}environ\b|\b(?:data|json|params|body|content)\s{0,100}=\s{0,100}(?:dict\s{0,100}\(\s{0,100})?os\s{0,100}\.\s{0,100}environ\b/g;
const PY_NET_LIB = /\b(?:requests|urllib|http\.client|httpx|aiohttp|socket|smtplib|ftplib|paramiko)\b/;

const JS_SEND =
  /\bfetch\s*\(|\bpost\s*\(|\.\s*(?:put|patch)\s*\(|\bhttps?\s*\.\s*(?:request|get)\s*\(|\baxios\b|\bXMLHttpRequest\b|\bsendBeacon\s*\(|\bnet\s*\.\s*(?:connect|createConnection)\s*\(|\bnew\s+WebSocket\s*\(|\bgot\s*\(|\bundici\b/g;
const PY_SEND =
  /\brequests\s*\.\s*(?:post|put|patch|get|request)\s*\(|\burlopen\s*\(|\burllib\s*\.\s*request\b|\bhttp\.client\b|\bhttpx\s*\.|\baiohttp\b|\bsocket\s*\.\s*socket\s*\(|\bsmtplib\b|\bftplib\b/g;
const SHELL_SEND: (RegExp | Near)[] = [
  {
    head: /(?<![\w.-])(?:curl|wget)\b/g,
    tail: /\s(?:-d|--data[\w-]{0,100}|-F|--form|-T|--upload-file|--post-file|--post-data)[=\s]|\s-X\s{0,100}(?:POST|PUT|PATCH)/g,
    gap: 300,
  },
  anchoredWord(/(?<![\w.-])(?:nc|ncat|netcat|socat|scp|rsync|sftp|ftp)\s/g, ['nc', 'netcat', 'socat', 'scp', 'rsync', 'sftp', 'ftp']),
];
const PS_SEND =
  /\b(?:Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\b[^\n]{0,200}?-(?:Method\s{1,100}['"]?(?:Post|Put)|Body|InFile)|\.Upload(?:String|File|Data)\s{0,100}\(/gi;
const RUBY_SEND = /\bNet::HTTP\b|\bHTTParty\b|\bFaraday\b|\bTCPSocket\b/g;
const PERL_SEND = /\bLWP::|\bHTTP::Tiny\b|\bIO::Socket\b/g;

const SENDS: Partial<Record<Lang, readonly (RegExp | Near)[]>> = {
  js: [JS_SEND],
  python: [PY_SEND],
  shell: SHELL_SEND,
  powershell: [PS_SEND],
  ruby: [RUBY_SEND],
  perl: [PERL_SEND],
  decoded: [JS_SEND, PY_SEND, ...SHELL_SEND],
};

const FILE_READS: Partial<Record<Lang, RegExp>> = {
  js: /\b(?:readFile|readFileSync|createReadStream)\s*\(/g,
  python: /(?<![\w.])open\s*\(|\.read_(?:text|bytes)\s*\(/g,
  ruby: /\bFile\s*\.\s*(?:read|open|binread)\b|\bIO\s*\.\s*read\b/g,
  perl: /\bopen\s*(?:\(\s*)?(?:my\s+)?[$\w]{1,100}\s*,\s*['"]</g,
  powershell: /\bGet-Content\b|\[(?:System\.)?IO\.File\]\s*::\s*Read/gi,
};
/** Sends that carry data (a plain GET of a file read elsewhere is not exfiltration). */
const UPLOADS: Partial<Record<Lang, RegExp>> = {
  js: JS_SEND,
  python: /\brequests\s*\.\s*(?:post|put|patch)\s*\(|\bhttpx\s*\.\s*(?:post|put|patch)\s*\(|\burlopen\s*\(|\bsmtplib\b|\bftplib\b|\.sendall?\s*\(/g,
  ruby: RUBY_SEND,
  perl: PERL_SEND,
  powershell: PS_SEND,
};

const SHELL_UPLOAD: Pattern[] = [
  [
    anchoredWord(/(?<![\w.-])curl\b[^\n]{0,300}?\s(?:-d|--data(?:-binary|-raw|-urlencode|-ascii)?|-F|--form)[=\s]+['"]?(?:[\w.[\]-]*=)?@(?!-)[^\s'"]/g, [
      'curl',
    ]),
    'curl uploads a local file.',
    ['curl'],
  ],
  [
    anchored(
      /(?<!\|)\|(?!\|)\s*curl\b[^\n]{0,300}?\s(?:-d|--data(?:-binary|-raw|-urlencode|-ascii)?|-F|--form|-T|--upload-file)[=\s]+['"]?(?:[\w.[\]-]*=)?@?-(?![\w-])/g,
      ['|'],
    ),
    'curl uploads data piped in from another command.',
    ['curl'],
  ],
  [anchoredWord(/(?<![\w.-])curl\b[^\n]{0,300}?\s(?:-T|--upload-file)[=\s]+\S/g, ['curl']), 'curl uploads a local file.', ['curl']],
  [anchoredWord(/(?<![\w.-])wget\b[^\n]{0,300}?--post-file[=\s]/g, ['wget']), 'wget uploads a local file.', ['--post-file']],
];

function sendPatterns(seg: Segment): readonly (RegExp | Near)[] {
  return SENDS[seg.lang === 'markdown' || seg.lang === 'text' ? 'shell' : seg.lang] ?? [];
}

/** Line indexes (inside the segment) of every network send. */
function sendLines(seg: Segment, re: RegExp): number[] {
  return [...matches(re, seg.code)].map((m) => lineIndexAt(seg, m.index));
}

function jsEnvHarvest(seg: Segment, sink: FindingSink, declaredEnv: ReadonlySet<string>): void {
  const sends = sendLines(seg, JS_SEND);
  if (sends.length === 0) return;
  const near = (offset: number) => {
    const line = lineIndexAt(seg, offset);
    return sends.some((s) => Math.abs(s - line) <= 8);
  };
  for (const m of matches(JS_WHOLE_ENV, seg.code)) {
    const destructured = /\}\s*=\s*$/.test(seg.code.slice(Math.max(0, m.index - 40), m.index));
    if (!destructured && near(m.index)) sink.add(seg, 'env-harvesting', 'critical', m.index, 'The whole process.env is used within 8 lines of a network send.');
  }
  if (seg.context !== 'script') return;
  for (const r of envReads(seg)) {
    if (!declaredEnv.has(r.name) && near(r.offset)) {
      sink.add(seg, 'env-harvesting', 'warn', r.offset, `Undeclared ${r.name} is read within 8 lines of a network send.`);
    }
  }
}

/** Line-level rules that hold in any text, Markdown prose included. */
export function exfilLineRules(seg: Segment, sink: FindingSink): void {
  flagAll(sink, seg, 'credential-access', 'warn', CREDENTIAL);
  if (isShellish(seg)) {
    if (segFirstIndex(seg, PIPE_INTO_CLIENT) >= 0) flagAll(sink, seg, 'env-harvesting', 'critical', SHELL_HARVEST_PIPED);
    flagAll(sink, seg, 'env-harvesting', 'critical', SHELL_HARVEST);
    flagAll(sink, seg, 'potential-exfiltration', 'warn', SHELL_UPLOAD);
  }
}

/** "X and a network send in the same place": checked per script, fenced block or decoded payload. */
export function exfilUnitRules(seg: Segment, sink: FindingSink, declaredEnv: ReadonlySet<string>): void {
  if ((seg.lang === 'js' || seg.lang === 'decoded') && hasAny(seg, ['process', 'deno', 'bun'])) jsEnvHarvest(seg, sink, declaredEnv);
  if ((seg.lang === 'python' || seg.lang === 'decoded') && hasAny(seg, ['environ']) && PY_NET_LIB.test(seg.code)) {
    flagAll(sink, seg, 'env-harvesting', 'critical', [[PY_WHOLE_ENV, 'The whole os.environ is collected in a file that talks to the network.']]);
  }
  if (sendPatterns(seg).some((send) => segFirstIndex(seg, send) >= 0)) {
    for (const [re, what, keywords] of CREDENTIAL) {
      if (!hasAny(seg, keywords)) continue;
      for (const at of matchStarts(re, seg.code))
        sink.add(seg, 'env-harvesting', 'critical', at, `${what.replace(/\.$/, '')} and sends data over the network in the same file.`);
    }
  }
  const read = FILE_READS[seg.lang];
  const upload = UPLOADS[seg.lang];
  if (read && upload && segFirstIndex(seg, read) >= 0) {
    const at = segFirstIndex(seg, upload);
    if (at >= 0) sink.add(seg, 'potential-exfiltration', 'warn', at, 'Reads local files and sends data over the network in the same file.');
  }
}
