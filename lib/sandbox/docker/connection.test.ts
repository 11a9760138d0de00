// What an empty Docker host in a sandbox config means: the engine Skilldock itself runs with.
import { expect, it } from 'vitest';
import { dockerEndpoint } from '@/lib/docker/client';
import { dockerConnection, serverEngine } from './connection';

it('an empty host is DOCKER_HOST, with DOCKER_CERT_PATH for tcp, else the local socket', () => {
  expect(serverEngine({ DOCKER_HOST: 'unix:///tmp/engine/docker.sock' })).toEqual({ host: 'unix:///tmp/engine/docker.sock' });
  expect(serverEngine({})).toEqual({ host: 'unix:///var/run/docker.sock' });
  expect(serverEngine({ DOCKER_HOST: 'tcp://10.0.0.1:2376', DOCKER_CERT_PATH: '/etc/docker-tls' })).toEqual({
    host: 'tcp://10.0.0.1:2376',
    tlsCertPath: '/etc/docker-tls',
  });
  // A unix socket has no TLS folder, whatever DOCKER_CERT_PATH says.
  expect(serverEngine({ DOCKER_HOST: 'unix:///x.sock', DOCKER_CERT_PATH: '/etc/docker-tls' })).toEqual({ host: 'unix:///x.sock' });
});

it('a connection without a host talks to the engine Settings shows; a host given is kept', () => {
  const saved = process.env.DOCKER_HOST;
  process.env.DOCKER_HOST = 'unix:///tmp/skilldock-connection-test/docker.sock';
  try {
    expect(dockerEndpoint()).toBe('unix:///tmp/skilldock-connection-test/docker.sock');
    expect(dockerConnection({}).endpoint).toBe(dockerEndpoint());
    expect(dockerConnection({ host: '' }).endpoint).toBe(dockerEndpoint());
    expect(dockerConnection({ host: 'unix:///run/other/docker.sock' }).endpoint).toBe('unix:///run/other/docker.sock');
  } finally {
    if (saved === undefined) delete process.env.DOCKER_HOST;
    else process.env.DOCKER_HOST = saved;
  }
});
