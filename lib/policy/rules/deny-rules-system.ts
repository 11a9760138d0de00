// Deny-group rules about the machine: destructive operations, privileges, dangerous paths, the
// container boundary, mining, persistence, process control.

import type { DenyGroup } from '../types';
import { anyString, DISK, names, type Spec } from './deny-helpers';
import { shortFlags } from './group-view';

export const SYSTEM_GROUPS: Partial<Record<DenyGroup, Spec[]>> = {
  destructive_ops: [
    [
      'rm_recursive_force',
      'rm with -r, -R, -f, --recursive or --force',
      (v) => v.name === 'rm' && ['r', 'R', 'f', '--recursive', '--force'].some((f) => shortFlags(v.args).has(f)),
    ],
    [
      'windows_delete',
      'del /f, del /q, rmdir /s',
      (v) => (v.name === 'del' && v.args.some((a) => /^\/[fqs]$/i.test(a))) || (v.name === 'rmdir' && v.args.some((a) => /^\/s$/i.test(a))),
    ],
    [
      'format',
      'mkfs, mkfs.*, diskpart, format, wipefs',
      (v) => v.name === 'mkfs' || v.name.startsWith('mkfs.') || ['diskpart', 'format', 'wipefs'].includes(v.name),
    ],
    ['dd', 'dd with if= or of=', (v) => v.name === 'dd' && v.args.some((a) => a.startsWith('if=') || a.startsWith('of='))],
    [
      'raw_disk_write',
      'a redirect or of= to /dev/sd*, /dev/nvme*, /dev/vd*, /dev/xvd*, /dev/hd*, /dev/mmcblk*',
      (v) =>
        [...v.redirects.filter((r) => r.op.includes('>')).map((r) => r.target), ...v.args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3))].some((s) =>
          DISK.test(s),
        ),
    ],
    ['shutdown', 'shutdown, reboot, poweroff, halt', names('shutdown', 'reboot', 'poweroff', 'halt')],
    ['runlevel', 'init 0 / init 6, telinit 0 / 6', (v) => (v.name === 'init' || v.name === 'telinit') && v.args.some((a) => a === '0' || a === '6')],
    [
      'systemctl_power',
      'systemctl suspend, hibernate, poweroff, reboot, halt, kexec',
      (v) => v.name === 'systemctl' && v.args.some((a) => ['suspend', 'hibernate', 'hybrid-sleep', 'poweroff', 'reboot', 'halt', 'kexec'].includes(a)),
    ],
    ['fork_bomb', 'a function that pipes into itself in the background (:(){ :|:& };:)', () => false],
  ],
  privilege_escalation: [
    ['sudo', 'sudo, sudoedit', names('sudo', 'sudoedit')],
    ['su', 'su', names('su')],
    ['doas', 'doas', names('doas')],
    ['pkexec', 'pkexec, run0', names('pkexec', 'run0')],
    ['runuser', 'runuser, setpriv, chroot', names('runuser', 'setpriv', 'chroot')],
    ['nsenter', 'nsenter', names('nsenter')],
    ['unshare', 'unshare', names('unshare')],
    ['mount', 'mount, umount', names('mount', 'umount')],
    ['capabilities', 'capsh, setcap, getcap', names('capsh', 'setcap', 'getcap')],
  ],
  dangerous_paths: [
    [
      'chmod_absolute',
      'chmod with a numeric mode on an absolute path',
      (v) => v.name === 'chmod' && v.args.some((a) => /^[0-7]{3,4}$/.test(a)) && v.args.some((a) => a.startsWith('/')),
    ],
    ['chown_absolute', 'chown or chgrp on an absolute path', (v) => (v.name === 'chown' || v.name === 'chgrp') && v.args.some((a) => a.startsWith('/'))],
    [
      'chmod_exec_tmp',
      'chmod +x on a file in /tmp, /var/tmp or /dev/shm',
      (v) => v.name === 'chmod' && v.args.some((a) => /^[ugoa]*\+[rwxXst]*x/.test(a)) && v.args.some((a) => /^\/(?:tmp|var\/tmp|dev\/shm)\//.test(a)),
    ],
    ['chmod_setuid', 'chmod setting the setuid or setgid bit', (v) => v.name === 'chmod' && v.args.some((a) => /^[ugoa]*\+[rwxX]*s|^[2467][0-7]{3}$/.test(a))],
  ],
  container_escape: [
    ['docker_socket', 'the Docker socket (docker.sock, docker.socket)', anyString(/docker\.sock(?:et)?\b/)],
    [
      'proc_sys',
      '/proc/sys/kernel, /proc/sys/fs, /proc/sys/net, /proc/sysrq-trigger, /proc/1/root',
      anyString(/^\/proc\/(?:sys\/(?:kernel|fs|net|vm)\/|sysrq-trigger|1\/root)/),
    ],
    ['sys_interfaces', '/sys/kernel, /sys/fs, /sys/class, /sys/devices', anyString(/^\/sys\/(?:kernel|fs|class|devices|module)(?:\/|$)/)],
  ],
  crypto_mining: [
    [
      'miner_binaries',
      'xmrig, cpuminer, minerd, cgminer, bfgminer, ethminer, nbminer, t-rex, phoenixminer, lolminer, gminer, claymore',
      names('xmrig', 'cpuminer', 'minerd', 'cgminer', 'bfgminer', 'ethminer', 'nbminer', 't-rex', 'phoenixminer', 'lolminer', 'gminer', 'claymore'),
    ],
    ['stratum', 'a stratum+tcp:// or stratum+ssl:// URL', anyString(/stratum\+(?:tcp|ssl|tls):\/\//i)],
  ],
  persistence: [
    ['crontab', 'crontab, at, batch', names('crontab', 'at', 'batch')],
    [
      'authorized_keys',
      'a write to ~/.ssh/authorized_keys',
      (v) =>
        v.redirects.some((r) => r.op.includes('>') && r.target.endsWith('authorized_keys')) ||
        ((v.name === 'tee' || v.name === 'cp' || v.name === 'mv') && v.args.some((a) => a.endsWith('authorized_keys'))),
    ],
    ['systemd_units', 'systemctl enable, a write to a systemd unit folder', (v) => v.name === 'systemctl' && v.args.includes('enable')],
  ],
  process_control: [
    [
      'kill_9',
      'kill -9, -KILL, -s KILL, -SIGKILL',
      (v) => v.name === 'kill' && v.args.some((a, i) => /^-(?:9|KILL|SIGKILL)$/i.test(a) || (a === '-s' && /^(?:SIG)?KILL$|^9$/i.test(v.args[i + 1] ?? ''))),
    ],
    ['killall', 'killall, pkill', names('killall', 'pkill')],
  ],
};
