import fs from 'node:fs';
import path from 'node:path';
import type { RuntimeLayout } from '../dir';
import type { ManagerReadiness, RuntimeReport } from '../report';

function nearestExisting(dir: string): string {
  let d = dir;
  while (!fs.existsSync(d) && path.dirname(d) !== d) d = path.dirname(d);
  return d;
}

function writable(dir: string): boolean {
  try {
    fs.accessSync(nearestExisting(dir), fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Per-manager ready flags with a reason and a fix hint, from a detection report. */
export function managerReadiness(report: Omit<RuntimeReport, 'managers'>, layout: RuntimeLayout): RuntimeReport['managers'] {
  const { python3, pip, node, npm } = report.runtimes;
  const mgr = report.system.manager;
  const installHint = (apt: string, apk: string) =>
    mgr === 'apk' ? `install it on the host: apk add ${apk}` : `install it on the host: apt-get install ${apt}`;
  const pipR: ManagerReadiness = !python3.available
    ? { ready: false, reason: python3.reason ?? 'python3 is not available', hint: installHint('python3 python3-pip', 'python3 py3-pip') }
    : !pip.available
      ? { ready: false, reason: pip.reason ?? 'pip is not available', hint: installHint('python3-pip', 'py3-pip') }
      : {
          ready: true,
          ...(python3.externallyManaged ? { reason: 'the system Python is externally managed (PEP 668); packages go to the runtime dir with --target' } : {}),
        };
  const npmR: ManagerReadiness = !npm.available
    ? { ready: false, reason: npm.reason ?? 'npm is not available', hint: installHint('npm', 'npm') }
    : node.reason
      ? { ready: true, reason: node.reason, hint: `add ${path.dirname(process.execPath)} to the service PATH` }
      : { ready: true };
  const s = report.system;
  const systemR: ManagerReadiness = !mgr
    ? {
        ready: false,
        reason: 'neither apt-get nor apk was found',
        hint: 'system packages need a Debian/Ubuntu (apt) or Alpine (apk) host; install what skills need in the image instead',
      }
    : !s.root && !s.sudo
      ? {
          ready: false,
          reason: `Skilldock does not run as root and \`sudo -n true\` ${s.sudoInstalled ? 'needs a password' : 'is unavailable (sudo is not installed)'}`,
          hint: `grant the service user passwordless sudo for ${s.path ?? mgr} (a sudoers line with NOPASSWD), or run the service as root`,
        }
      : { ready: true };
  const arch = report.platform.arch;
  const githubR: ManagerReadiness =
    report.platform.os !== 'linux'
      ? {
          ready: false,
          reason: `GitHub-release installs support Linux only (this is ${report.platform.os})`,
          hint: 'run Skilldock on Linux, or install the tool on the host yourself',
        }
      : arch !== 'x86_64' && arch !== 'aarch64'
        ? {
            ready: false,
            reason: `no release assets are chosen for ${arch}; x86_64 and aarch64 are supported`,
            hint: 'install the tool with the system package manager instead',
          }
        : !writable(layout.bin)
          ? { ready: false, reason: `${layout.bin} is not writable by the service user`, hint: `chown -R ${process.getuid?.() ?? '<uid>'} ${layout.root}` }
          : report.platform.libc === 'unknown'
            ? { ready: true, reason: 'the C library (glibc or musl) could not be identified, so downloaded binaries cannot be checked against it' }
            : { ready: true };
  return { pip: pipR, npm: npmR, system: systemR, github: githubR };
}
