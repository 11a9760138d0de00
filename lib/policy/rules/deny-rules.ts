// The rules of the fifteen deny groups, each over a parsed segment (see group-view.ts). Every rule
// has a stable id `<group>.<name>` and a readable pattern for the console.

import { DENY_GROUPS, type DenyGroup } from '../types';
import { CODE_GROUPS } from './deny-rules-code';
import { HOST_GROUPS } from './deny-rules-host';
import { SYSTEM_GROUPS } from './deny-rules-system';
import type { GroupView } from './group-view';

export interface DenyRule {
  id: string;
  group: DenyGroup;
  pattern: string;
  /** The command names (or wrapper names) the rule can match at all; absent: any segment. */
  commands?: ReadonlySet<string>;
  test(v: GroupView): boolean;
}

/** Rules that look at one tool only: tested only on segments running (or wrapped by) one of these. */
const RULE_COMMANDS: Record<string, string[]> = {
  'destructive_ops.rm_recursive_force': ['rm'],
  'destructive_ops.windows_delete': ['del', 'rmdir'],
  'destructive_ops.dd': ['dd'],
  'destructive_ops.shutdown': ['shutdown', 'reboot', 'poweroff', 'halt'],
  'destructive_ops.runlevel': ['init', 'telinit'],
  'destructive_ops.systemctl_power': ['systemctl'],
  'destructive_ops.fork_bomb': [],
  'data_exfiltration.pipe_to_shell': ['curl', 'wget'],
  'data_exfiltration.curl_upload': ['curl'],
  'data_exfiltration.wget_upload': ['wget'],
  'data_exfiltration.dns_lookup': ['nslookup', 'dig', 'host', 'drill'],
  'data_exfiltration.loopback': ['curl', 'wget'],
  'reverse_shell.netcat': ['nc', 'ncat', 'netcat'],
  'reverse_shell.socat': ['socat'],
  'reverse_shell.openssl_client': ['openssl'],
  'reverse_shell.telnet_port': ['telnet'],
  'reverse_shell.perl_network': ['perl'],
  'reverse_shell.ruby_network': ['ruby'],
  'reverse_shell.node_network': ['node'],
  'reverse_shell.awk_inet': ['awk', 'gawk', 'mawk', 'nawk'],
  'reverse_shell.mkfifo': ['mkfifo', 'mknod'],
  'code_injection.eval_dynamic': [],
  'code_injection.dynamic_script': [],
  'code_injection.base64_to_shell': ['base64', 'xxd', 'openssl'],
  'privilege_escalation.sudo': ['sudo', 'sudoedit'],
  'privilege_escalation.su': ['su'],
  'privilege_escalation.doas': ['doas'],
  'privilege_escalation.pkexec': ['pkexec', 'run0'],
  'privilege_escalation.runuser': ['runuser', 'setpriv', 'chroot'],
  'privilege_escalation.nsenter': ['nsenter'],
  'privilege_escalation.unshare': ['unshare'],
  'privilege_escalation.mount': ['mount', 'umount'],
  'privilege_escalation.capabilities': ['capsh', 'setcap', 'getcap'],
  'dangerous_paths.chmod_absolute': ['chmod'],
  'dangerous_paths.chown_absolute': ['chown', 'chgrp'],
  'dangerous_paths.chmod_exec_tmp': ['chmod'],
  'dangerous_paths.chmod_setuid': ['chmod'],
  'filter_bypass.sed_execute': ['sed', 'gsed'],
  'filter_bypass.sort_compress': ['sort'],
  'filter_bypass.git_program': ['git'],
  'filter_bypass.grep_pre': ['rg', 'grep'],
  'filter_bypass.man_program': ['man'],
  'filter_bypass.history_edit': ['history'],
  'network_recon.remote_login': ['ssh', 'scp', 'sftp'],
  'package_install.npm': ['npm'],
  'package_install.apk': ['apk'],
  'package_install.apt': ['apt', 'apt-get'],
  'package_install.yarn': ['yarn'],
  'package_install.pnpm': ['pnpm'],
  'package_install.cargo': ['cargo'],
  'persistence.systemd_units': ['systemctl'],
  'process_control.kill_9': ['kill'],
  'env_dump.env': ['env', 'printenv'],
  'env_dump.shell_listing': ['set', 'export', 'declare', 'typeset', 'compgen'],
  'env_dump.strings_proc': ['strings'],
  'env_dump.product_secrets': ['echo', 'printf'],
};

export const DENY_RULES: DenyRule[] = DENY_GROUPS.flatMap((group) =>
  [...(SYSTEM_GROUPS[group] ?? []), ...(CODE_GROUPS[group] ?? []), ...(HOST_GROUPS[group] ?? [])].map(([name, pattern, test]) => {
    const id = `${group}.${name}`;
    const commands = RULE_COMMANDS[id];
    return { id, group, pattern, test, ...(commands ? { commands: new Set(commands) } : {}) };
  }),
);

/** Written-form rules: shapes a parser cannot show as commands (they are refused as unparseable anyway). */
export const TEXT_RULES: { id: string; group: DenyGroup; re: RegExp }[] = [
  { id: 'destructive_ops.fork_bomb', group: 'destructive_ops', re: /:\s{0,8}\(\s{0,8}\)\s{0,8}\{[^}]{0,64}:\s{0,8}\|\s{0,8}:/ },
  { id: 'data_exfiltration.dev_tcp', group: 'data_exfiltration', re: /\/dev\/(?:tcp|udp)\// },
];
