// Risk levels of a command: high (destructive, privileged or networked tools), medium (verbs that
// change a repository, a package tree or files), low (everything else). A segment's level is the
// highest of its command and the wrappers around it.
import type { Risk } from './types';
import { baseName } from './wrappers';

export const HIGH_RISK = new Set([
  'rm',
  'mkfs',
  'dd',
  'shutdown',
  'reboot',
  'halt',
  'poweroff',
  'sudo',
  'su',
  'chown',
  'chmod',
  'useradd',
  'userdel',
  'usermod',
  'passwd',
  'mount',
  'umount',
  'iptables',
  'ufw',
  'firewall-cmd',
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'scp',
  'ssh',
  'ftp',
  'telnet',
  // Windows names, judged the same way when they show up in a POSIX shell.
  'del',
  'rmdir',
  'format',
  'reg',
  'net',
  'runas',
  'icacls',
  'takeown',
  'powershell',
  'pwsh',
  'wmic',
  'sc',
  'netsh',
]);

/** Written forms that are high risk whatever the allowlist says. */
const HIGH_RISK_TEXT = ['rm -rf /', 'rm -fr /', ':(){:|:&};:', 'del /s /q', 'rmdir /s /q', 'format c:'];

const MUTATING: Record<string, Set<string>> = {
  git: new Set([
    'add',
    'am',
    'apply',
    'branch',
    'checkout',
    'cherry-pick',
    'clean',
    'clone',
    'commit',
    'fetch',
    'gc',
    'init',
    'merge',
    'mv',
    'pull',
    'push',
    'rebase',
    'reset',
    'restore',
    'revert',
    'rm',
    'stash',
    'submodule',
    'switch',
    'tag',
    'worktree',
  ]),
  npm: new Set([
    'add',
    'ci',
    'dedupe',
    'i',
    'init',
    'install',
    'link',
    'prune',
    'publish',
    'rebuild',
    'remove',
    'rm',
    'uninstall',
    'unlink',
    'un',
    'unpublish',
    'update',
    'up',
    'upgrade',
    'version',
  ]),
  pnpm: new Set(['add', 'i', 'install', 'link', 'prune', 'publish', 'remove', 'rm', 'uninstall', 'unlink', 'update', 'up']),
  yarn: new Set(['add', 'install', 'link', 'publish', 'remove', 'unlink', 'upgrade', 'up', 'version']),
  cargo: new Set(['add', 'build', 'clean', 'fix', 'init', 'install', 'new', 'publish', 'remove', 'uninstall', 'update', 'yank']),
};
const MEDIUM = new Set(['touch', 'mkdir', 'mv', 'cp', 'ln']);
const ORDER: Record<Risk, number> = { low: 0, medium: 1, high: 2 };

export const maxRisk = (a: Risk, b: Risk): Risk => (ORDER[a] >= ORDER[b] ? a : b);

/** The first operand of a tool with global options (`git -C dir commit` → `commit`). */
function verb(argv: readonly string[]): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-C' || a === '-c' || a === '--git-dir' || a === '--work-tree' || a === '--prefix' || a === '--manifest-path') i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

export function commandRisk(argv: readonly string[], text = ''): Risk {
  if (!argv.length) return 'low';
  const name = baseName(argv[0]);
  const compact = text.replace(/\s+/g, ' ');
  if (HIGH_RISK.has(name) || name.startsWith('mkfs.') || HIGH_RISK_TEXT.some((t) => compact.includes(t))) return 'high';
  const mutating = MUTATING[name];
  if (mutating) {
    const v = verb(argv);
    return v && mutating.has(v) ? 'medium' : 'low';
  }
  return MEDIUM.has(name) ? 'medium' : 'low';
}

export function segmentRisk(argv: readonly string[], wrappers: readonly string[], text: string): Risk {
  let risk = commandRisk(argv, text);
  for (const w of wrappers) risk = maxRisk(risk, commandRisk([w.split(' ')[0]]));
  return risk;
}
