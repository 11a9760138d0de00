// Deny-group rules about the sandbox host itself: shell start-up files and PATH folders written by
// any writer, credential files, copied interpreters, killing every process, daemonising, privileged
// containers and publishing packages. They read `writes` and `paths` of the view (absolute,
// normalised), so every spelling of a path is the same path.

import type { DenyGroup } from '../types';
import { names, type Spec } from './deny-helpers';
import type { GroupView } from './group-view';
import { privilegedContainer } from './risk';

const RC_NAMES = /^\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|zlogout|kshrc|mkshrc|shrc|inputrc|bash_aliases|envrc)$/;
const RC_SYSTEM =
  /^\/etc\/(?:profile|bash\.bashrc|bashrc|environment|zshrc|zshenv|zprofile|zlogin|shells|ld\.so\.preload)$|^\/etc\/(?:profile\.d|zsh|skel|bash_completion\.d)(?:\/|$)/;

/** A shell start-up file: one named like `.bashrc` anywhere, or the system-wide profiles. */
export const isRcFile = (p: string) => RC_SYSTEM.test(p) || RC_NAMES.test(p.slice(p.lastIndexOf('/') + 1)) || /\/\.config\/fish(?:\/|$)/.test(p);

const PATH_DIRS =
  /^\/(?:usr\/(?:local\/)?(?:s?bin|games|libexec)|s?bin|opt\/skilldock|etc\/alternatives)(?:\/|$)|^\/[^/]+(?:\/[^/]+)?\/(?:\.local\/bin|bin)(?:\/|$)/;
/** A folder a shell searches for commands (or Skilldock's own tools): writing there trojans a name. */
export const isPathDir = (p: string) => PATH_DIRS.test(p) && !p.startsWith('/workspace/');

const CREDENTIALS =
  /\/\.ssh\/(?:id_[^/]*|[^/]*_key|identity|authorized_keys)$|\/\.ssh\/?$|\/\.aws\/(?:credentials|config)$|\/\.netrc$|\/\.docker\/config\.json$|\/\.config\/gh\/hosts\.ya?ml$|\/\.git-credentials$|\/\.kube\/config$|\/\.npmrc$|\/\.pypirc$|\/\.gnupg(?:\/|$)|\/\.config\/gcloud(?:\/|$)|\/\.azure(?:\/|$)|^\/etc\/(?:shadow|gshadow|sudoers)(?:-|\/|$)|\/\.vault-token$|\/\.config\/op(?:\/|$)|\/\.cargo\/credentials(?:\.toml)?$|\/\.gem\/credentials$/;

/** An SSH key, a cloud, registry or CLI credential, /etc/shadow … */
/** A `*_key` file anywhere below an `.ssh` folder, checked by position (a regex for it would backtrack). */
const sshKeyBelow = (p: string) => p.endsWith('_key') && p.includes('/.ssh/');
export const isCredentialFile = (p: string) => CREDENTIALS.test(p) || sshKeyBelow(p);

const INTERPRETER = /^(?:sh|bash|dash|zsh|ksh|ash|mksh|busybox|toybox|python\d?(?:\.\d+)?|perl|ruby|node|php|lua|env)$/;
const SYSTEM_BIN = /^\/(?:usr\/(?:local\/)?)?s?bin\//;

/** `kill` operands that reach every process (-1), the init process (1) or a whole process group. */
function killsEveryone(args: readonly string[]): boolean {
  let i = 0;
  if (args[i] === '-s' || args[i] === '-n') i += 2;
  else if (args[i] && /^-(?:[A-Za-z]+\d*|\d+)$/.test(args[i]) && args.length > 1) i++;
  if (args[i] === '--') i++;
  return args.slice(i).some((a) => /^-\d+$/.test(a) || a === '1' || a === '0');
}

/** `verb` (and optional sub-verb) of a publishing command, by tool. */
const PUBLISH: Record<string, (a: readonly string[]) => boolean> = {
  npm: (a) => a.includes('publish') || a.includes('unpublish'),
  pnpm: (a) => a.includes('publish'),
  yarn: (a) => a.includes('publish'),
  bun: (a) => a.includes('publish'),
  twine: (a) => a.includes('upload'),
  gem: (a) => a.includes('push'),
  cargo: (a) => a.includes('publish') || a.includes('yank'),
  poetry: (a) => a.includes('publish'),
  uv: (a) => a.includes('publish'),
  flit: (a) => a.includes('publish'),
  hatch: (a) => a.includes('publish'),
  pdm: (a) => a.includes('publish'),
  gh: (a) => a[0] === 'release' && (a.includes('upload') || a.includes('create')),
  docker: (a) => a.includes('push'),
  podman: (a) => a.includes('push'),
  helm: (a) => a.includes('push'),
  mvn: (a) => a.includes('deploy'),
  gradle: (a) => a.some((x) => /^publish/.test(x)),
  dotnet: (a) => a.includes('push'),
  nuget: (a) => a.includes('push'),
  vsce: (a) => a.includes('publish'),
  jsr: (a) => a.includes('publish'),
  deno: (a) => a.includes('publish'),
};

const setupUpload = (v: GroupView) =>
  /^python/.test(v.name) && v.args.some((a) => a.endsWith('setup.py')) && v.args.some((a) => a === 'upload' || a === 'register');
const twineModule = (v: GroupView) => /^python/.test(v.name) && v.args.some((a, i) => (a === '-m' && v.args[i + 1] === 'twine') || a === '-mtwine');

export const HOST_GROUPS: Partial<Record<DenyGroup, Spec[]>> = {
  persistence: [
    [
      'rc_write',
      'any write (redirect, cp, mv, install, ln, tee, sort -o, uniq, sed w, awk >, find -fprintf, dd of=) to a shell start-up file or profile',
      (v) => v.writes.some(isRcFile),
    ],
    ['path_write', 'any write into a folder of PATH (/usr/local/bin, /usr/bin, /bin, ~/.local/bin …) or Skilldock’s tools', (v) => v.writes.some(isPathDir)],
  ],
  code_injection: [
    [
      'copied_interpreter',
      'a shell or interpreter binary copied, linked or read out under another name',
      (v) =>
        ['cp', 'ln', 'install', 'mv', 'rsync', 'cat', 'dd', 'tee', 'head', 'tail', 'base64', 'xxd', 'gzip', 'tar'].includes(v.name) &&
        v.paths.some((p) => SYSTEM_BIN.test(p) && INTERPRETER.test(p.slice(p.lastIndexOf('/') + 1))),
    ],
    [
      'mapfile_callback',
      'mapfile -C / readarray -C (a command run for every line)',
      (v) => (v.name === 'mapfile' || v.name === 'readarray') && v.args.some((a) => /^-[a-zA-Z]*C/.test(a)),
    ],
  ],
  data_exfiltration: [
    ['credential_files', 'SSH keys, cloud, registry and CLI credentials, ~/.netrc, /etc/shadow', (v) => v.paths.some(isCredentialFile)],
    [
      'package_publish',
      'publishing or uploading a package or image (npm publish, twine upload, gem push, cargo publish, docker push, gh release upload …)',
      (v) => (PUBLISH[v.name]?.(v.args) ?? false) || setupUpload(v) || (twineModule(v) && v.args.includes('upload')),
    ],
  ],
  env_injection: [['shell_rcfile', 'bash --rcfile or --init-file (a start-up file run before the command)', () => false]],
  container_escape: [
    [
      'privileged_container',
      'docker or podman run with --privileged, host namespaces, added capabilities or the host’s root mounted',
      (v) => privilegedContainer([v.name, ...v.args]),
    ],
  ],
  process_control: [
    ['kill_all', 'kill of every process (-1), of init (1) or of a process group', (v) => v.name === 'kill' && killsEveryone(v.args)],
    [
      'daemonize',
      'nohup, setsid, disown, daemonize, start-stop-daemon: a process that outlives the exec',
      names('nohup', 'setsid', 'disown', 'daemonize', 'start-stop-daemon'),
    ],
  ],
};
