import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { checkImage } from './backend';
import { DockerClients, dockerConnection } from './connection';
import { containerCreateOptions, resolveWorkspaceMount } from './create-spec';
import { killArgv, timedArgv, validateExec } from './exec';
import { sandboxPath } from './files';
import { buildTar } from './tar';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.code : `not an AppError: ${e}`;
  }
  return undefined;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-spec-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const KIT = { name: 'skilldock-kit-abc123', version: 'abc123' };

describe('containerCreateOptions', () => {
  it('pins PID 1, drops capabilities and bounds memory, CPU and PIDs', () => {
    const o = containerCreateOptions(
      { image: 'busybox:1', limits: { cpu: 1.5, memoryMb: 256, pids: 100 }, idleTtlSeconds: 60, labels: { a: 'b' } },
      { configId: 'cfg1' },
      KIT,
    );
    expect(o.Entrypoint).toEqual(['sleep']);
    expect(o.Cmd).toEqual(['infinity']);
    expect(o.User).toBe('0');
    expect(o.WorkingDir).toBe('/workspace');
    expect(o.Labels).toEqual({
      a: 'b',
      'io.skilldock.managed': 'true',
      'io.skilldock.config-id': 'cfg1',
      'io.skilldock.idle-ttl-seconds': '60',
      'io.skilldock.kit': 'abc123',
    });
    // The kit is the only thing mounted, read-only: no sandbox process can change Skilldock's control program.
    expect(o.HostConfig?.Mounts).toEqual([{ Type: 'volume', Source: 'skilldock-kit-abc123', Target: '/.skilldock-kit', ReadOnly: true }]);
    expect(o.HostConfig).toMatchObject({
      Memory: 256 * 1024 * 1024,
      MemorySwap: 256 * 1024 * 1024,
      NanoCpus: 1.5e9,
      PidsLimit: 100,
      CapDrop: ['ALL'],
      CapAdd: ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'SETGID', 'SETUID', 'KILL'],
      SecurityOpt: ['no-new-privileges'],
      Init: true,
      NetworkMode: 'none',
      ReadonlyRootfs: false,
    });
    expect(o.HostConfig?.Tmpfs).toBeUndefined();
  });

  it('uses the defaults, a runtime, and a noexec /tmp with a workspace volume on a read-only rootfs', () => {
    const o = containerCreateOptions({ image: 'x' }, { readOnlyRootfs: true, runtime: 'runsc', network: 'bridge' }, KIT);
    expect(o.HostConfig).toMatchObject({
      Memory: 2048 * 1024 * 1024,
      NanoCpus: 2e9,
      PidsLimit: 512,
      Runtime: 'runsc',
      ReadonlyRootfs: true,
      NetworkMode: 'bridge',
    });
    expect(o.HostConfig?.Tmpfs?.['/tmp']).toMatch(/(^|,)noexec(,|$)/);
    expect(o.HostConfig?.Mounts?.map((m) => `${m.Type}:${m.Target}`)).toEqual(['volume:/.skilldock-kit', 'volume:/workspace']);
    expect(o.Labels?.['io.skilldock.idle-ttl-seconds']).toBe('1800');
  });

  it('refuses host and container networks, bad env names and limits out of range', () => {
    expect(codeOf(() => containerCreateOptions({ image: 'x', network: 'host' }, {}, KIT))).toBe('validation');
    expect(codeOf(() => containerCreateOptions({ image: 'x', network: 'container:abc' }, {}, KIT))).toBe('validation');
    expect(codeOf(() => containerCreateOptions({ image: 'x', env: { 'A=B': '1' } }, {}, KIT))).toBe('validation');
    expect(codeOf(() => containerCreateOptions({ image: 'x', limits: { memoryMb: -1 } }, {}, KIT))).toBe('validation');
    expect(codeOf(() => containerCreateOptions({ image: 'x', limits: { cpu: Number.NaN } }, {}, KIT))).toBe('validation');
    expect(containerCreateOptions({ image: 'x', network: 'skilldock-net-1' }, {}, KIT).HostConfig?.NetworkMode).toBe('skilldock-net-1');
  });
});

describe('resolveWorkspaceMount', () => {
  const root = path.join(tmp, 'root');
  const outside = path.join(tmp, 'outside');
  fs.mkdirSync(path.join(root, 'ws'), { recursive: true });
  fs.mkdirSync(outside);
  fs.mkdirSync(`${root}-sibling`);
  fs.symlinkSync(outside, path.join(root, 'link'));

  it('returns the canonical path inside a root and refuses escapes', () => {
    expect(resolveWorkspaceMount({ hostPath: path.join(root, 'ws'), allowedRoots: [root] })).toBe(fs.realpathSync(path.join(root, 'ws')));
    expect(codeOf(() => resolveWorkspaceMount({ hostPath: path.join(root, 'link'), allowedRoots: [root] }))).toBe('not_allowed');
    expect(codeOf(() => resolveWorkspaceMount({ hostPath: `${root}/../outside`, allowedRoots: [root] }))).toBe('validation');
    expect(codeOf(() => resolveWorkspaceMount({ hostPath: `${root}-sibling`, allowedRoots: [root] }))).toBe('not_allowed');
    expect(codeOf(() => resolveWorkspaceMount({ hostPath: path.join(root, 'missing'), allowedRoots: [root] }))).toBe('validation');
    expect(codeOf(() => resolveWorkspaceMount({ hostPath: outside, allowedRoots: [] }))).toBe('not_allowed');
    expect(codeOf(() => resolveWorkspaceMount({ hostPath: outside, allowedRoots: ['relative'] }))).toBe('validation');
  });
});

describe('exec and path validation', () => {
  const base = { timeoutMs: 1000, maxOutputBytes: 10 };
  it('puts the caller argv under the kit, by absolute path, with its deadline and run id', () => {
    expect(timedArgv({ argv: ['echo', 'a b'], ...base, timeoutMs: 1500 })).toEqual(['/.skilldock-kit/skilldock-kit', 'run', '-t', '2', '--', 'echo', 'a b']);
    expect(timedArgv({ argv: ['sh'], timeoutMs: 0 }, 'terminal-1')).toEqual(['/.skilldock-kit/skilldock-kit', 'run', '-i', 'terminal-1', '--', 'sh']);
    expect(killArgv('terminal-1')).toEqual(['/.skilldock-kit/skilldock-kit', 'kill', 'terminal-1']);
  });
  it('refuses NUL, empty or oversized argv, bad env and relative cwd', () => {
    for (const req of [
      { argv: [] },
      { argv: [''] },
      { argv: ['a\0'] },
      { argv: ['a'], timeoutMs: 0 },
      { argv: ['a'], env: { 'BAD NAME': 'x' } },
      { argv: ['a'], cwd: 'rel' },
      { argv: Array.from({ length: 5000 }, () => 'a') },
    ]) {
      expect(codeOf(() => validateExec({ ...base, ...req }))).toBe('validation');
    }
  });
  it('keeps paths absolute and normalised, refusing /proc, /sys and /dev', () => {
    expect(sandboxPath('/workspace//a/./b/')).toBe('/workspace/a/b');
    expect(codeOf(() => sandboxPath('/workspace/../proc/1/environ'))).toBe('not_allowed');
    expect(codeOf(() => sandboxPath('/dev'))).toBe('not_allowed');
    expect(codeOf(() => sandboxPath('workspace'))).toBe('validation');
    expect(sandboxPath('/devices')).toBe('/devices');
  });
  it('accepts image references and refuses injection attempts', () => {
    expect(checkImage('registry.local:5000/team/python:3.12-slim')).toBeTruthy();
    for (const bad of ['busybox; rm -rf /', '--privileged', 'UPPER/case', 'a b', `x@sha256:${'0'.repeat(10)}`])
      expect(codeOf(() => checkImage(bad))).toBe('validation');
  });
});

describe('connections', () => {
  it('shares one client per host within a service, never across two, and refuses malformed hosts or missing TLS files', () => {
    const clients = new DockerClients();
    const x = dockerConnection({ host: 'unix:///run/x.sock', clients });
    expect(dockerConnection({ host: 'unix:///run/x.sock', clients })).toBe(x);
    expect(dockerConnection({ host: 'unix:///run/x.sock', clients: new DockerClients() })).not.toBe(x);
    expect(dockerConnection({ host: 'unix:///run/x.sock' })).not.toBe(x);
    expect(codeOf(() => dockerConnection({ host: 'http://127.0.0.1:2375' }))).toBe('validation');
    expect(codeOf(() => dockerConnection({ host: 'unix://relative.sock' }))).toBe('validation');
    expect(codeOf(() => dockerConnection({ host: 'tcp://10.0.0.1:2376' }))).toBe('validation');
    expect(codeOf(() => dockerConnection({ host: 'tcp://10.0.0.1:2376', tlsCertPath: tmp }))).toBe('validation');
  });
});

describe('buildTar', () => {
  it('writes entries node-tar reads back, long names included', async () => {
    const long = `${'d'.repeat(90)}/${'f'.repeat(90)}.txt`;
    const tar = buildTar([
      { type: 'dir', name: 'a' },
      { type: 'file', name: 'a/x.bin', data: Buffer.from('hello'), mode: 0o600 },
      { type: 'symlink', name: 'a/l', target: 'x.bin' },
      { type: 'file', name: long, data: Buffer.alloc(513, 1) },
    ]);
    const seen: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const p = new Parser();
      p.on('entry', (e: ReadEntry) => {
        seen.push(`${e.type}:${e.path}:${e.size}:${(e.mode ?? 0).toString(8)}${e.linkpath ? `>${e.linkpath}` : ''}`);
        e.resume();
      });
      p.on('end', resolve);
      p.on('error', reject);
      Readable.from([tar]).pipe(p as unknown as NodeJS.WritableStream);
    });
    expect(seen).toEqual(['Directory:a/:0:755', 'File:a/x.bin:5:600', 'SymbolicLink:a/l:0:777>x.bin', `File:${long}:513:644`]);
    expect(codeOf(() => buildTar([{ type: 'file', name: 'x'.repeat(300), data: Buffer.alloc(0) }]))).toBe('validation');
  });
});
