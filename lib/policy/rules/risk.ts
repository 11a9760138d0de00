// Risk levels of a command: high (destructive, privileged or networked tools), medium (verbs that
// change a repository, a package tree or files), low (everything else). A segment's level is the
// highest of its command and the wrappers around it.

import { baseName } from '../shell/wrappers';
import type { Risk } from '../types';
import { registryInstall } from './package-installs';

// process-wide: a constant table, never written
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

// process-wide: a constant table, never written
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
// process-wide: a constant table, never written
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

/**
 * `rm` of the agent's own files (plain relative paths that stay below the working directory, no
 * options, no globs) changes files like `mv` does; any other `rm` is high risk.
 */
function rmOfOwnFiles(argv: readonly string[]): boolean {
  const operands = argv.slice(1).filter((a) => a !== '--');
  const end = argv.indexOf('--');
  return (
    operands.length > 0 &&
    operands.every((a, i) => (end >= 0 && i + 1 >= end) || !a.startsWith('-')) &&
    operands.every((a) => !a.startsWith('/') && !a.startsWith('~') && !/[*?[{]/.test(a) && a !== '.' && !a.split('/').includes('..'))
  );
}

/** Container engines asked to drop their isolation: privileged, host namespaces, the host's root mounted. */
export function privilegedContainer(argv: readonly string[]): boolean {
  const name = baseName(argv[0] ?? '');
  if (!['docker', 'podman', 'nerdctl'].includes(name)) return false;
  return argv
    .slice(1)
    .some(
      (a, i) =>
        /^--privileged(?:=true)?$/.test(a) ||
        /^--(?:pid|net|network|ipc|uts|userns|cgroupns)=host$/.test(a) ||
        (/^--(?:pid|net|network|ipc|uts|userns|cgroupns)$/.test(a) && argv[i + 2] === 'host') ||
        /^--(?:cap-add|security-opt|device)(?:=|$)/.test(a) ||
        (/^(?:-v|--volume|--mount)$/.test(a) && hostRootMount(argv[i + 2] ?? '')) ||
        (/^(?:-v|--volume|--mount)=/.test(a) && hostRootMount(a.slice(a.indexOf('=') + 1))) ||
        (/^-v./.test(a) && hostRootMount(a.slice(2))),
    );
}

/** A bind mount whose source is the host's root or one of its system folders. */
function hostRootMount(spec: string): boolean {
  const src = spec.includes('source=') ? (/source=([^,]*)/.exec(spec)?.[1] ?? '') : spec.split(':')[0];
  return /^\/+(?:$|\.{1,2}\/*$|(?:etc|root|proc|sys|dev|var\/run|run|var\/lib\/docker|home|boot|usr|bin|sbin|lib)(?:\/|$))/.test(src);
}

/** Firewall tools asked only to report their state. */
function readOnlyFirewall(name: string, args: readonly string[]): boolean {
  if (name === 'ufw') return args.length > 0 && ['status', 'version', 'show'].includes(args.filter((a) => !a.startsWith('-'))[0] ?? '');
  if (name === 'firewall-cmd') return args.length > 0 && args.every((a) => /^--(?:state|list-[a-z-]+|get-[a-z-]+|query-[a-z-]+|zone=[\w-]+)$/.test(a));
  return false;
}

export function commandRisk(argv: readonly string[]): Risk {
  if (!argv.length) return 'low';
  const name = baseName(argv[0]);
  if (name === 'rm') return rmOfOwnFiles(argv) ? 'medium' : 'high';
  if (readOnlyFirewall(name, argv.slice(1))) return 'low';
  if (registryInstall(argv)) return 'medium';
  if (HIGH_RISK.has(name) || name.startsWith('mkfs.') || privilegedContainer(argv)) return 'high';
  const mutating = MUTATING[name];
  if (mutating) {
    const v = verb(argv);
    return v && mutating.has(v) ? 'medium' : 'low';
  }
  return MEDIUM.has(name) ? 'medium' : 'low';
}

export function segmentRisk(argv: readonly string[], wrappers: readonly string[]): Risk {
  let risk = commandRisk(argv);
  for (const w of wrappers) risk = maxRisk(risk, commandRisk([w.split(' ')[0]]));
  return risk;
}
