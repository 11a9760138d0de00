import { describe, expect, it } from 'vitest';
import { imageRefProblem } from './image-ref';
import { createConfigInput, dockerConfig, parseDockerHost } from './schema';

describe('image references', () => {
  it.each([
    'busybox',
    'busybox:1.36',
    'library/busybox:latest',
    'registry.example.com:5000/team/tools:2.1',
    'localhost/skilldock-test:v1',
    `alpine@sha256:${'a'.repeat(64)}`,
    'my_repo/img__x-y.z:1.0-rc_1',
  ])('accepts %s', (ref) => {
    expect(imageRefProblem(ref)).toBeNull();
  });
  it.each([
    'busybox;rm -rf /',
    '$(x)',
    'busybox`id`',
    'busybox && id',
    '--privileged',
    '-v/:/host',
    'Busybox',
    'busybox:',
    'busybox:-x',
    'a/../b',
    'busybox\nid',
    'busybox@sha256:short',
    '',
    'a'.repeat(256),
  ])('refuses %j', (ref) => {
    expect(imageRefProblem(ref)).not.toBeNull();
  });
});

describe('docker host', () => {
  it('accepts unix and tcp forms', () => {
    expect(parseDockerHost('unix:///var/run/docker.sock')).toEqual({ kind: 'unix', path: '/var/run/docker.sock' });
    expect(parseDockerHost('tcp://engine.example.com:2376')).toEqual({ kind: 'tcp', host: 'engine.example.com', port: 2376 });
    expect(parseDockerHost('tcp://[::1]:2376')).toEqual({ kind: 'tcp', host: '::1', port: 2376 });
  });
  it.each(['http://x:1', 'tcp://x', 'tcp://x:99999', 'unix://relative', 'unix:///a/../b', 'ssh://x', 'tcp://a b:1'])('refuses %s', (h) => {
    expect(parseDockerHost(h)).toBeNull();
  });
});

describe('docker config schema', () => {
  it('fills the defaults', () => {
    expect(dockerConfig.parse({ image: 'busybox' })).toMatchObject({
      cpuLimit: 2,
      memoryLimitMb: 2048,
      pidsLimit: 512,
      idleTtlSeconds: 1800,
      networkMode: 'bridge',
      readOnlyRootfs: false,
    });
  });
  it('names the field of each problem', () => {
    const r = dockerConfig.safeParse({
      image: 'x;y',
      cpuLimit: 0,
      memoryLimitMb: 1,
      pidsLimit: 1e6,
      networkMode: 'host',
      runtime: 'run sc',
      workspaceMount: '/a/../b',
    });
    expect(r.success).toBe(false);
    const paths = r.error?.issues.map((i) => i.path.join('.')).sort();
    expect(paths).toEqual(['cpuLimit', 'image', 'memoryLimitMb', 'networkMode', 'pidsLimit', 'runtime', 'workspaceMount']);
  });
  it('refuses an unknown backend and unknown fields', () => {
    expect(createConfigInput.safeParse({ name: 'x', backend: 'local', config: {} }).success).toBe(false);
    expect(createConfigInput.safeParse({ name: 'x', backend: 'docker', config: { image: 'busybox', privileged: true } }).success).toBe(false);
  });
});
