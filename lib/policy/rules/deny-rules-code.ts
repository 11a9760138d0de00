// Deny-group rules about code and data: exfiltration, reverse shells, code injection, environment
// injection, filter bypasses, reconnaissance, package installs, environment dumps.

import { parseOptions, WRAPPERS } from '../shell/wrapper-specs';
import type { DenyGroup } from '../types';
import { anyString, code, isCmd, LOOPBACK, names, PYTHON, type Spec, sedExecutes } from './deny-helpers';
import { hasWord } from './group-view';
import { registryInstall } from './package-installs';

/** `env`, `env -u X`, `env -i A=1`: no command left, so env prints the environment. */
function envRunsNothing(args: readonly string[]): boolean {
  const o = parseOptions(['env', ...args], 1, WRAPPERS.env);
  if (!o.ok) return true;
  return args.slice(o.rest - 1).every((a) => a === '-' || /^[A-Za-z_][A-Za-z0-9_]{0,127}=/.test(a));
}

const fromRegistry = (v: { name: string; args: readonly string[] }) => registryInstall([v.name, ...v.args]) !== null;

export const CODE_GROUPS: Partial<Record<DenyGroup, Spec[]>> = {
  data_exfiltration: [
    ['pipe_to_shell', 'curl or wget piped into a shell or interpreter', (v) => (v.name === 'curl' || v.name === 'wget') && v.feedsCode],
    [
      'curl_upload',
      'curl sending a local file or stdin (-d @file, --data-binary @-, -F x=@file, -F x=<file, -T, --upload-file, --json @file)',
      (v) =>
        v.name === 'curl' &&
        v.args.some((a, i) => {
          const next = v.args[i + 1] ?? '';
          if (/^(?:-T|--upload-file)(?:=|$)|^-T./.test(a)) return true;
          const value = /^(?:-[dF]|--data[a-z-]*|--form[a-z-]*|--json)$/.test(a)
            ? next
            : /^-[dF]./.test(a)
              ? a.slice(2)
              : /^--(?:data[a-z-]*|form[a-z-]*|json)=/.test(a)
                ? a.slice(a.indexOf('=') + 1)
                : null;
          return (
            value !== null && (/^[@<]/.test(value) || /^[^=]{0,128}=[@<]/.test(value) || (/^[A-Za-z0-9_.-]{0,128}@/.test(value) && /^--data-urlencode/.test(a)))
          );
        }),
    ],
    [
      'wget_upload',
      'wget --post-data, --post-file, --body-data, --body-file, --method=POST/PUT/PATCH',
      (v) => v.name === 'wget' && v.args.some((a) => /^--(?:post-|body-|method=P)/i.test(a)),
    ],
    ['dns_lookup', 'nslookup, dig, host, drill', isCmd('nslookup', 'dig', 'host', 'drill')],
    ['dev_tcp', '/dev/tcp/ or /dev/udp/ anywhere', anyString(/\/dev\/(?:tcp|udp)\//)],
    [
      'loopback',
      'curl or wget to localhost, 127.0.0.0/8, 0.0.0.0, [::1] or 169.254.0.0/16',
      (v) => (v.name === 'curl' || v.name === 'wget') && v.args.some((a) => LOOPBACK.test(a)),
    ],
  ],
  reverse_shell: [
    ['netcat', 'nc, ncat or netcat with any argument', (v) => ['nc', 'ncat', 'netcat'].includes(v.name) && v.args.length > 0],
    ['socat', 'socat', names('socat')],
    ['openssl_client', 'openssl s_client or s_server', (v) => v.name === 'openssl' && v.args.some((a) => a === 's_client' || a === 's_server')],
    ['telnet_port', 'telnet with a port or address', (v) => v.name === 'telnet' && v.args.some((a) => /\d/.test(a))],
    [
      'python_network',
      'python code importing socket, http, urllib, requests, httpx or aiohttp',
      (v) =>
        PYTHON.test(v.name) &&
        /(?:^|[^\p{L}\p{N}_])(?:import|from)\s+(?:socket|http|urllib|requests|httpx|aiohttp)(?:[^\p{L}\p{N}_]|$)|__import__/u.test(code(v)),
    ],
    [
      'perl_network',
      'perl -e code using Socket',
      (v) => v.name === 'perl' && v.args.some((a) => a.startsWith('-e') || a.startsWith('-E')) && hasWord(code(v), 'Socket'),
    ],
    [
      'ruby_network',
      'ruby -e code using TCPSocket or Socket',
      (v) => v.name === 'ruby' && v.args.some((a) => a.startsWith('-e')) && (hasWord(code(v), 'TCPSocket') || hasWord(code(v), 'Socket')),
    ],
    [
      'node_network',
      'node -e code using net, http, https, fetch, axios, got or undici',
      (v) =>
        v.name === 'node' &&
        v.args.some((a) => /^(?:-e|--eval|-p|--print)/.test(a)) &&
        /(?:^|[^\w$])(?:net|https?|dgram|tls)\.|fetch\s*\(|axios|got\s*\(|undici|require\s*\(\s*['"`](?:node:)?(?:net|https?|dgram|tls|child_process)['"`]/.test(
          code(v),
        ),
    ],
    ['awk_inet', 'awk with /inet/', (v) => /^(?:g|m|n)?awk$/.test(v.name) && v.args.some((a) => a.includes('/inet/'))],
    ['mkfifo', 'mkfifo, mknod … p', (v) => v.name === 'mkfifo' || (v.name === 'mknod' && v.args.includes('p'))],
  ],
  code_injection: [
    ['eval_dynamic', 'eval of a string only known at run time ($VAR, $(…))', () => false],
    ['dynamic_script', 'sh -c, bash -c or <<< with a string only known at run time', () => false],
    [
      'base64_to_shell',
      'base64 -d / --decode (or xxd -r, openssl base64 -d) piped into a shell or interpreter',
      (v) =>
        v.feedsCode &&
        ((v.name === 'base64' && v.args.some((a) => /^-[a-zA-Z]{0,4}[dD]|^--decode$/.test(a))) ||
          (v.name === 'xxd' && v.args.some((a) => /^-[a-z]{0,4}r/.test(a))) ||
          (v.name === 'openssl' && v.args.includes('base64') && v.args.includes('-d'))),
    ],
  ],
  env_injection: [
    [
      'loader_variables',
      'LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, DYLD_* set for a command or exported',
      (v) => v.assignments.some((a) => /^(?:LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_[A-Z_]{1,40})$/.test(a.name)),
    ],
    [
      'shell_startup',
      'BASH_ENV, ENV, PROMPT_COMMAND set for a command or exported',
      (v) => v.assignments.some((a) => ['BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'PS4'].includes(a.name)),
    ],
    [
      'path_ifs',
      'PATH or IFS set for a command or exported (which program a name runs, how words split)',
      (v) => v.assignments.some((a) => a.name === 'PATH' || a.name === 'IFS'),
    ],
    [
      'tool_hooks',
      'GIT_EXTERNAL_DIFF, GIT_DIFF_OPTS, GIT_SSH_COMMAND, GIT_PAGER, NODE_OPTIONS, PERL5OPT set',
      (v) =>
        v.assignments.some((a) =>
          ['GIT_EXTERNAL_DIFF', 'GIT_DIFF_OPTS', 'GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_PAGER', 'NODE_OPTIONS', 'PERL5OPT', 'PYTHONSTARTUP'].includes(a.name),
        ),
    ],
    ['ld_so_preload', '/etc/ld.so.preload anywhere', anyString(/\/etc\/ld\.so\.preload/)],
  ],
  filter_bypass: [
    ['sed_execute', 'sed with the e command or the s///e flag', (v) => (v.name === 'sed' || v.name === 'gsed') && v.args.some(sedExecutes)],
    [
      'sort_compress',
      'sort --compress-program (and its abbreviations)',
      (v) => v.name === 'sort' && v.args.some((a) => a.startsWith('--co') && '--compress-program'.startsWith(a.split('=', 1)[0])),
    ],
    [
      'git_program',
      'git --upload-pack, --receive-pack, --exec, -u',
      (v) => v.name === 'git' && v.args.some((a) => /^--(?:upload-pack|receive-pack|exec)(?:=|$)/.test(a)),
    ],
    ['grep_pre', 'rg or grep --pre', (v) => (v.name === 'rg' || v.name === 'grep') && v.args.some((a) => a === '--pre' || a.startsWith('--pre='))],
    ['man_program', 'man --html, -H, --pager, -P', (v) => v.name === 'man' && v.args.some((a) => /^(?:--html|--pager|-H|-P)/.test(a))],
    ['history_edit', 'history -s, -a, -w, -r, -n', (v) => v.name === 'history' && v.args.some((a) => /^-[a-z]{0,5}[sawrn]/.test(a))],
    ['parameter_transform', 'a ${var@P}-style parameter transformation', (v) => v.transforms],
  ],
  network_recon: [
    ['port_scanners', 'nmap, masscan, zmap, rustscan', names('nmap', 'masscan', 'zmap', 'rustscan')],
    ['remote_login', 'ssh, scp, sftp to user@host', (v) => ['ssh', 'scp', 'sftp'].includes(v.name) && v.args.some((a) => a.includes('@'))],
    [
      'tunnels',
      'chisel, frpc, frps, ngrok, cloudflared, bore, localtunnel',
      names('chisel', 'frp', 'frpc', 'frps', 'ngrok', 'cloudflared', 'bore', 'localtunnel', 'lt'),
    ],
  ],
  package_install: [
    [
      'pip',
      'pip install / uninstall (pip, pip3, uv pip) of anything but named packages from the default index',
      (v) =>
        (/^pip\d?(?:\.\d+)?$/.test(v.name) || (v.name === 'uv' && v.args[0] === 'pip')) &&
        v.args.some((a) => a === 'install' || a === 'uninstall') &&
        !fromRegistry(v),
    ],
    [
      'python_m_pip',
      'python -m pip, but a named-package install from the default index',
      (v) => PYTHON.test(v.name) && v.args.some((a, i) => (a === '-m' && v.args[i + 1] === 'pip') || a === '-mpip') && !fromRegistry(v),
    ],
    [
      'npm',
      'npm install, i, ci, add, uninstall of the project manifest, a URL, git, a path or globally (named registry packages are medium risk)',
      (v) => v.name === 'npm' && v.args.some((a) => ['install', 'i', 'in', 'ci', 'add', 'uninstall', 'un', 'remove', 'rm'].includes(a)) && !fromRegistry(v),
    ],
    ['apk', 'apk add / del', (v) => v.name === 'apk' && v.args.some((a) => a === 'add' || a === 'del')],
    [
      'apt',
      'apt, apt-get install / remove / purge',
      (v) => (v.name === 'apt' || v.name === 'apt-get') && v.args.some((a) => ['install', 'remove', 'purge', 'reinstall'].includes(a)),
    ],
    ['yarn', 'yarn add / global', (v) => v.name === 'yarn' && v.args.some((a) => a === 'add' || a === 'global')],
    ['pnpm', 'pnpm add / install / i', (v) => v.name === 'pnpm' && v.args.some((a) => a === 'add' || a === 'install' || a === 'i')],
    ['cargo', 'cargo install', (v) => v.name === 'cargo' && v.args[0] === 'install'],
  ],
  env_dump: [
    ['env', 'env or printenv without a command', (v) => (v.name === 'env' && envRunsNothing(v.args)) || v.name === 'printenv'],
    [
      'shell_listing',
      'set, export -p, declare -x / -p, typeset -x, compgen -e, export with no names',
      (v) =>
        (v.name === 'set' && !v.args.length) ||
        (['export', 'declare', 'typeset'].includes(v.name) && (!v.args.length || v.args.some((a) => /^-[a-z]{0,5}[xp]/.test(a)))) ||
        (v.name === 'compgen' && v.args.includes('-e')),
    ],
    ['proc_environ', '/proc/*/environ', anyString(/^\/proc\/[^/]{1,32}\/environ/)],
    ['strings_proc', 'strings on /proc', (v) => v.name === 'strings' && v.args.some((a) => a.startsWith('/proc/'))],
    [
      'product_secrets',
      'echo / printf of SKILLDOCK_SECRET_KEY, DATABASE_URL, NEXTAUTH_SECRET',
      (v) =>
        ['echo', 'printf'].includes(v.name) &&
        v.args.some((a) => /\$\{?(?:SKILLDOCK_SECRET_KEY|SKILLDOCK_ADMIN_PASSWORD|DATABASE_URL|NEXTAUTH_SECRET)\b/.test(a)),
    ],
    [
      'interpreter_environ',
      'python os.environ / os.getenv, node process.env in inline code',
      (v) =>
        (PYTHON.test(v.name) && v.args.some((a) => a.startsWith('-c')) && /os\.(?:environ|getenv)/.test(code(v))) ||
        (v.name === 'node' && /process\.env/.test(code(v)) && v.args.some((a) => /^(?:-e|--eval|-p|--print)/.test(a))),
    ],
  ],
};
