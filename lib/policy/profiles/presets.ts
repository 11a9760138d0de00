// The three built-in profiles, and the rules no profile turns off.
import { type PresetName, type ProfileRules, profileRulesSchema } from '../types';

const LOCKED_DOWN_COMMANDS = [
  'git',
  'npm',
  'cargo',
  'ls',
  'cat',
  'grep',
  'find',
  'echo',
  'pwd',
  'wc',
  'head',
  'tail',
  'date',
  'df',
  'du',
  'uname',
  'uptime',
  'hostname',
  'python',
  'python3',
  'pip',
  'node',
  'free',
];
const LOCKED_DOWN_PATHS = [
  '/etc',
  '/root',
  '/home',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/opt',
  '/boot',
  '/dev',
  '/proc',
  '/sys',
  '/var',
  '/tmp',
  '~/.ssh',
  '~/.gnupg',
  '~/.aws',
  '~/.config',
];

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/** Shared and read-only (frozen): copy with presetRules() before changing anything. */
export const PRESET_RULES: Readonly<Record<PresetName, ProfileRules>> = deepFreeze({
  /** A strict allowlist, paths confined to the workspace, medium-risk verbs asked for. */
  locked_down: profileRulesSchema.parse({
    allowedCommands: LOCKED_DOWN_COMMANDS,
    approvalForMedium: true,
    inlineCode: 'deny',
    forbiddenPaths: LOCKED_DOWN_PATHS,
    workspaceOnly: true,
  }),
  /** Any command, high-risk ones blocked, every deny group at its default, pre-checks on. The default. */
  balanced: profileRulesSchema.parse({}),
  /** Every optional check off: only the always-on rules below still refuse. */
  yolo: profileRulesSchema.parse({
    allowedCommands: ['*'],
    blockHighRisk: false,
    approvalForMedium: false,
    preChecks: false,
    blockInterpreterArgs: false,
    denyGroups: {
      destructive_ops: 'off',
      data_exfiltration: 'off',
      reverse_shell: 'off',
      code_injection: 'off',
      privilege_escalation: 'off',
      dangerous_paths: 'off',
      env_injection: 'off',
      container_escape: 'off',
      crypto_mining: 'off',
      filter_bypass: 'off',
      network_recon: 'off',
      package_install: 'off',
      persistence: 'off',
      process_control: 'off',
      env_dump: 'off',
    },
    writeThenRun: 'off',
  }),
});

export const presetRules = (name: PresetName): ProfileRules => structuredClone(PRESET_RULES[name]);

/**
 * Refused under every profile, yolo included: what cannot be judged, and the two ways out of the
 * sandbox's own protections — the container engine's socket (root on the host) and another
 * process's environment (the credentials the sandbox was started with).
 */
export const ALWAYS_ON_RULES: { rule: string; description: string }[] = [
  { rule: 'too_long', description: 'A command longer than 64 KiB.' },
  { rule: 'nul_byte', description: 'A NUL byte in the command.' },
  { rule: 'control_char', description: 'A control character other than tab and newline (CR included).' },
  {
    rule: 'normalization',
    description: 'A character Unicode normalisation would change (full-width look-alikes), an invisible, bidirectional or non-ASCII space character.',
  },
  {
    rule: 'unparseable',
    description: 'A parse error, a parse over its time budget, or a shell construct outside the understood set (control flow, functions, arithmetic).',
  },
  { rule: 'too_deep', description: 'Wrappers or sh -c strings nested more than 4 levels, or more than 100 commands.' },
  { rule: 'dynamic_command', description: 'A command name only known at run time ($CMD, $(…), a glob, non-ASCII letters).' },
  { rule: 'shell_state', description: 'alias, trap, enable, bind, fc, complete, shopt, hash -p: they change what later commands mean.' },
  { rule: 'wrapper_options', description: 'A wrapper (env, timeout, xargs, sudo, sh …) with an option it does not know, or env -S.' },
  { rule: 'always_on:docker_socket', description: 'The Docker socket (docker.sock) in any argument or redirect.' },
  { rule: 'always_on:proc_environ', description: '/proc/*/environ in any argument or redirect, in any spelling of the path, or a recursive read over /proc.' },
  { rule: 'always_on:proc_fd', description: "Another process's /proc/*/fd: its terminal and pipes." },
];
