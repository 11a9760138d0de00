// The kit's volume on one engine: `skilldock-kit-<version>`, filled through the archive API of a
// container that is created but never started, then mounted read-only into every sandbox. Works
// the same for a local socket and a remote engine (no host path is bound). A volume that already
// holds the same bytes is left alone, so processes and installations sharing an engine never
// rewrite a kit that their sandboxes are running.
import { type DockerConnection, toAppError } from '../docker/connection';
import { getFile } from '../docker/files';
import { buildTar } from '../docker/tar';
import { KIT_BIN, KIT_MOUNT, kitBinary } from './build';

export const LABEL_KIT = 'io.skilldock.kit';
const LABEL_KIT_FILLER = 'io.skilldock.kit-filler';

export interface KitVolume {
  name: string;
  version: string;
}

/** Whether the volume, as the filler container sees it, already holds exactly these bytes. */
async function holdsKit(conn: DockerConnection, fillerId: string, bytes: Buffer): Promise<boolean> {
  try {
    const chunks: Buffer[] = [];
    for await (const c of await getFile(conn, fillerId, KIT_BIN, bytes.length)) chunks.push(c as Buffer);
    return Buffer.concat(chunks).equals(bytes);
  } catch {
    return false;
  }
}

/** Makes the volume hold the kit (what each process does once per engine). */
export async function fillKitVolume(conn: DockerConnection, image: string): Promise<KitVolume> {
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
      // Written only when absent or different: rewriting the file would pull it from under the
      // sandboxes of other processes that run it right now.
      if (!(await holdsKit(conn, filler.id, kit.bytes)))
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
  // Kept on the connection: once per engine for the service whose clients these are.
  const p = (conn.kit ??= fillKitVolume(conn, image).catch((e) => {
    if (conn.kit === p) conn.kit = undefined;
    throw e;
  }));
  return p;
}
