/** The scanner's rules: ids, default severities and descriptions, shared by SARIF output and the UI. */
import type { FindingSeverity } from '../types';

export interface ScanRule {
  id: string;
  /** Default severity; some findings of a rule are raised or lowered (see the description). */
  severity: FindingSeverity;
  title: string;
  description: string;
}

export const SCAN_RULES: readonly ScanRule[] = [
  {
    id: 'dangerous-exec',
    severity: 'critical',
    title: 'Process execution from code',
    description:
      'JS child_process exec/spawn, Python subprocess/os.system/os.popen/pty.spawn, Ruby system/backticks/%x, Perl system/exec/qx. Plain commands in shell scripts are not flagged. Warn only inside Markdown examples.',
  },
  {
    id: 'dynamic-code-execution',
    severity: 'critical',
    title: 'Dynamic code execution',
    description:
      'eval / new Function / vm in JS, eval/exec/compile of non-literal input in Python, shell eval of a variable, Invoke-Expression of a variable. Warn only inside Markdown examples.',
  },
  {
    id: 'remote-pipe-shell',
    severity: 'critical',
    title: 'Remote script piped into a shell',
    description:
      'curl/wget output piped or substituted into sh/bash/python/node/perl (also via sudo, <(…), sh -c "$(…)", download-then-run) and PowerShell download cradles (iex (iwr …)), in any file including SKILL.md prose — the ClawHavoc install trick.',
  },
  {
    id: 'reverse-shell',
    severity: 'critical',
    title: 'Reverse shell',
    description:
      '/dev/tcp, nc -e, interactive shells on socket descriptors, mkfifo + nc, socket + dup2 + /bin/sh, socat exec, PowerShell TCPClient + Invoke-Expression.',
  },
  {
    id: 'crypto-mining',
    severity: 'critical',
    title: 'Cryptocurrency mining',
    description: 'Mining pools (stratum+tcp/ssl) and miners (xmrig, minerd, cpuminer, coinhive, cryptonight).',
  },
  {
    id: 'env-harvesting',
    severity: 'critical',
    title: 'Environment or credential harvesting',
    description:
      'The whole environment (process.env, os.environ items/dict, env/printenv) or a credential store combined with a network send. Warn when a script reads an undeclared variable within 8 lines of a send.',
  },
  {
    id: 'credential-access',
    severity: 'warn',
    title: 'Credential store access',
    description: 'Reads of ~/.ssh, ~/.aws/credentials, ~/.netrc, .env files, browser cookie/password stores, keychains.',
  },
  {
    id: 'potential-exfiltration',
    severity: 'warn',
    title: 'Possible data exfiltration',
    description: 'Local file reads combined with a network send in the same file; curl -d @file / --data-binary @ / -F x=@file / -T.',
  },
  {
    id: 'obfuscated-code',
    severity: 'warn',
    title: 'Obfuscated code',
    description: 'Runs of \\xNN escapes, decoders applied to base64 literals of 200+ chars, very long high-entropy lines.',
  },
  {
    id: 'encoded-payload',
    severity: 'warn',
    title: 'Executed encoded payload',
    description:
      'Decoded content that is executed (eval(atob(…)), exec(b64decode(…))); critical when piped into a shell (base64 -d | bash, powershell -enc). Base64/hex literals are also decoded and re-scanned: those findings carry the rule of what was found.',
  },
  {
    id: 'suspicious-network',
    severity: 'warn',
    title: 'Suspicious network endpoint',
    description: 'WebSockets or raw sockets to non-standard ports (not 80, 443, 8080, 8443, 3000), URLs with raw IP addresses.',
  },
  {
    id: 'destructive-delete',
    severity: 'warn',
    title: 'Destructive command',
    description: 'rm -r of /, ~, $HOME or system folders, mkfs, dd to a disk device; a fork bomb is critical.',
  },
  {
    id: 'prompt-injection',
    severity: 'warn',
    title: 'Prompt injection in instructions',
    description:
      "Phrases that override the agent's instructions or act behind the user's back, and hidden comments with instructions; critical when hidden (HTML comment, invisible characters) or combined with concealment.",
  },
  {
    id: 'hidden-text',
    severity: 'warn',
    title: 'Invisible characters',
    description: 'Zero-width, bidirectional control or Unicode tag characters (U+200B–U+200F, U+202A–U+202E, U+2066–U+2069, U+E0000–U+E007F).',
  },
  {
    id: 'undeclared-env',
    severity: 'warn',
    title: 'Undeclared environment variable',
    description: 'A script reads an environment variable the skill does not declare in requires.env or primaryEnv.',
  },
  {
    id: 'undeclared-network',
    severity: 'info',
    title: 'Undeclared network host',
    description: "A script contacts an http(s) host that is not the skill's homepage or an install URL host.",
  },
  {
    id: 'binary-file',
    severity: 'warn',
    title: 'Binary file',
    description: 'Executables and unknown binary data cannot be reviewed; recognised media and fonts are info only.',
  },
  {
    id: 'nested-archive',
    severity: 'warn',
    title: 'Nested archive',
    description: 'An archive (zip, gzip, 7z, rar, xz, bzip2, zstd, tar) inside the skill: its contents are not scanned.',
  },
  {
    id: 'encrypted-archive',
    severity: 'critical',
    title: 'Password-protected archive',
    description: 'A ZIP with an encrypted entry: its contents cannot be inspected (ClawHavoc).',
  },
];

// process-wide: a constant table, never written
export const SCAN_RULE_IDS: ReadonlySet<string> = new Set(SCAN_RULES.map((r) => r.id));

/**
 * Version of the rules. Stored with every persisted verdict: a verdict of an older version is
 * not reused, so changing a rule (bump this) rescans every skill once.
 */
export const SCANNER_VERSION = '2';
