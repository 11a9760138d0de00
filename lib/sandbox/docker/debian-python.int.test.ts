// The Debian python3 test image (mmdebstrap rootfs, imported offline) runs a real interpreter
// through the Docker backend's exec; the skill-install and terminal tests build on this image.
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDocker } from '@/test/helpers/docker';
import { ensureDebianPythonImage } from '@/test/helpers/sandbox-images';
import { DockerBackend } from './backend';

describeDocker('Debian python3 sandbox image', () => {
  const docker = new Docker();
  const backend = new DockerBackend({ host: process.env.DOCKER_HOST });
  let image = '';
  let id = '';

  beforeAll(async () => {
    image = await ensureDebianPythonImage(docker);
  }, 25 * 60_000);
  afterAll(async () => {
    if (id) await backend.remove(id);
  });

  it('runs python3 inside a sandbox created from it', async () => {
    const sb = await backend.create({ image, labels: { 'io.skilldock.test': 'debian-python' } });
    id = sb.id;
    const r = await backend.exec(sb.id, { argv: ['python3', '-c', 'print(6*7)'], timeoutMs: 30_000, maxOutputBytes: 4096 });
    expect(r).toMatchObject({ exitCode: 0, stdout: '42\n', timedOut: false });
  });
});
