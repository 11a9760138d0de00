// The kit's volume on one engine: `skilldock-kit-<version>`, filled through the archive API of a
// container that is created but never started, then mounted read-only into every sandbox. Works
// the same for a local socket and a remote engine (no host path is bound). Filling again writes
// the same bytes, so concurrent processes and installations sharing an engine cannot disagree.
import type Docker from 'dockerode';
import { type DockerConnection, toAppError } from '../docker/connection';
import { buildTar } from '../docker/tar';
import { KIT_BIN, KIT_MOUNT, kitBinary } from './build';

export const LABEL_KIT = 'io.skilldock.kit';
const LABEL_KIT_FILLER = 'io.skilldock.kit-filler';

export interface KitVolume {
  name: string;
  version: string;
}

/** Per engine client: the volume once filled in this process. */
const filled = new WeakMap<Docker, Promise<KitVolume>>();

async function fill(conn: DockerConnection, image: string): Promise<KitVolume> {
  const kit = await kitBinary();
  const name = `skilldock-kit-${kit.version}`;
  const what = `prepare the control kit volume ${name}`;
  try {
    await conn.api.createVolume({ Name: name, Labels: { [LABEL_KIT]: kit.version } });
    const filler = await conn.api.createContainer({
      Image: image,
      Entrypoint: [KIT_BIN],
      Cmd: ['now'],
      Labels: { [LABEL_KIT_FILLER]: kit.version },
      NetworkDisabled: true,
      HostConfig: { NetworkMode: 'none', Mounts: [{ Type: 'volume', Source: name, Target: KIT_MOUNT }] },
    });
    try {
      await filler.putArchive(buildTar([{ type: 'file', name: 'skilldock-kit', data: kit.bytes, mode: 0o755 }]), { path: KIT_MOUNT });
    } finally {
      await filler.remove({ force: true }).catch(() => {});
    }
  } catch (e) {
    throw toAppError(e, conn.endpoint, what);
  }
  return { name, version: kit.version };
}

/** The filled kit volume on this engine; `image` is any image the engine has (it is never run). */
export function kitVolume(conn: DockerConnection, image: string): Promise<KitVolume> {
  let p = filled.get(conn.api);
  if (!p) {
    p = fill(conn, image).catch((e) => {
      filled.delete(conn.api);
      throw e;
    });
    filled.set(conn.api, p);
  }
  return p;
}
