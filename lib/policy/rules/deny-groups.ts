// The fifteen deny groups: names, what they target, their default mode, and the rules that make
// them up. `package_install` asks an admin by default instead of refusing.

import { DENY_GROUPS, type DenyGroup, type GroupMode, type ProfileRules } from '../types';
import { DENY_RULES } from './deny-rules';
import type { GroupView } from './group-view';

export const GROUP_DESCRIPTIONS: Record<DenyGroup, string> = {
  destructive_ops: 'Recursive or forced deletes, filesystem formatting, raw disk writes, shutdown and reboot, runlevel changes, suspend, fork bombs.',
  data_exfiltration:
    'Downloads piped into a shell, local files uploaded with curl or wget, DNS lookup tools, /dev/tcp, requests to loopback or link-local addresses, credential files, publishing packages to registries.',
  reverse_shell: 'netcat with options or addresses, socat, openssl s_client, telnet to a port, inline Python/Perl/Ruby/Node network code, awk /inet/, mkfifo.',
  code_injection: 'eval of a run-time string, sh -c of a run-time string, base64-decoded payloads piped into a shell, copied interpreters, mapfile -C.',
  privilege_escalation: 'sudo, su, doas, pkexec, runuser, nsenter, unshare, mount and umount, capability tools.',
  dangerous_paths: 'chmod or chown on absolute paths, making files in /tmp, /var/tmp or /dev/shm executable, setuid bits.',
  env_injection: 'LD_PRELOAD, DYLD_*, LD_LIBRARY_PATH, /etc/ld.so.preload, git diff and ssh hooks, BASH_ENV, ENV, PROMPT_COMMAND, NODE_OPTIONS.',
  container_escape: 'The Docker socket, /proc/sys/* and /sys/* kernel interfaces, privileged containers and host mounts.',
  crypto_mining: 'Miner binaries and stratum URLs.',
  filter_bypass:
    'sed …/e, sort --compress-program, git --upload-pack/--receive-pack/--exec, rg/grep --pre, man --html, history -s/-a/-w, ${var@P} transformations.',
  network_recon: 'Port scanners, ssh/scp/sftp to user@host, tunnelling tools.',
  package_install:
    'Installs whose source the engine cannot vet: pip (python -m pip) and npm installs from URLs, git, local archives or folders, other indexes or registries, requirements files, the project manifest or globally; apk add / del, apt-get install, yarn and pnpm add, cargo install. Named packages from the default registry (pip install x, npm install x, npx x) are medium-risk changes instead.',
  persistence: 'crontab and at, any write to shell start-up files, profiles, PATH folders and authorized_keys, systemctl enable.',
  process_control: 'kill -9, kill of every process or of init, killall, pkill, nohup, setsid, disown and other daemonisers.',
  env_dump: 'env, printenv, set, export -p, declare -x, compgen -e, /proc/*/environ, echoing the product secrets.',
};

export const GROUP_DEFAULTS: Record<DenyGroup, GroupMode> = Object.fromEntries(
  DENY_GROUPS.map((g) => [g, g === 'package_install' ? 'approval' : 'deny']),
) as Record<DenyGroup, GroupMode>;

export interface DenyGroupDescriptor {
  name: DenyGroup;
  description: string;
  default: GroupMode;
  patterns: { id: string; pattern: string }[];
}

/** For `GET /api/v1/exec-policy/deny-groups`. */
export const DENY_GROUP_DESCRIPTORS: DenyGroupDescriptor[] = DENY_GROUPS.map((name) => ({
  name,
  description: GROUP_DESCRIPTIONS[name],
  default: GROUP_DEFAULTS[name],
  patterns: DENY_RULES.filter((r) => r.group === name).map((r) => ({ id: r.id, pattern: r.pattern })),
}));

export const groupMode = (rules: Pick<ProfileRules, 'denyGroups'>, group: DenyGroup): GroupMode => rules.denyGroups[group] ?? GROUP_DEFAULTS[group];

export interface GroupMatch {
  group: DenyGroup;
  ruleId: string;
  mode: Exclude<GroupMode, 'off'>;
  pattern: string;
}

/** Every enabled group rule the segment matches, in table order. */
export function matchGroups(view: GroupView, rules: Pick<ProfileRules, 'denyGroups'>): GroupMatch[] {
  const out: GroupMatch[] = [];
  for (const r of DENY_RULES) {
    const c = r.commands;
    if (c && !c.has(view.name) && !view.wrappers.some((w) => c.has(w))) continue;
    const mode = groupMode(rules, r.group);
    if (mode === 'off') continue;
    if (r.test(view)) out.push({ group: r.group, ruleId: r.id, mode, pattern: r.pattern });
  }
  return out;
}
