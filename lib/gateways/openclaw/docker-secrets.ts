// The secrets file apiKey SecretRefs point at, in a gateway container's state folder, through the
// Engine API: a tar with the one file (mode 0600, owned by the state folder's owner, which is the
// user the gateway runs as) unpacked under a temporary name in the same folder, then renamed over
// the old file the way skill folders are swapped in. OpenClaw refuses a file that is not private,
// not its user's, or hard-linked; a rename leaves exactly one link, and a reader sees the old file
// or the new one. The text is never put into an error or a log.
import path from 'node:path/posix';
import { AppError } from '../../core/errors';
import { buildTar } from '../../sandbox/docker/tar';
import type { SecretsFile } from '../access';
import type { GatewayDocker } from './docker-exec';
import { type EntryStat, putContainerTar, readContainerFileEntry, statContainerPath } from './docker-files';
import { type ManagedDir, removeTree, rename } from './docker-skills';
import { SECRETS_FILE } from './plan';

/** OpenClaw's file provider reads at most 1 MiB by default. */
const MAX_SECRETS_BYTES = 1024 * 1024;
/** One fixed name: a leftover of an interrupted write is replaced (never followed) by the next one. */
export const SECRETS_TEMP = `.${SECRETS_FILE}.skilldock-tmp`;

export function containerSecretsFile(d: GatewayDocker, container: string, stateDir: string): SecretsFile {
  const file = path.join(stateDir, SECRETS_FILE);
  const dir: ManagedDir = { d, container, dir: stateDir };
  let owner: Promise<EntryStat> | null = null;
  const ownerOf = () => {
    owner ??= statContainerPath(d, container, stateDir).then((st) => {
      if (st?.type !== 'dir')
        throw new AppError('validation', `The gateway's state folder ${stateDir} in the container ${container} is not a folder.`, {
          hint: "Set the gateway's state folder to the folder that holds openclaw.json.",
        });
      return st;
    });
    return owner;
  };
  const current = async () => {
    try {
      return await readContainerFileEntry(d, container, file, MAX_SECRETS_BYTES);
    } catch (e) {
      // Not a regular file (a symlink, a folder) or too large: never read, replaced by the next write.
      if (e instanceof AppError && (e.code === 'validation' || e.code === 'payload_too_large')) return null;
      throw e;
    }
  };
  const private_ = (st: EntryStat, o: EntryStat) => st.type === 'file' && st.mode === 0o600 && st.uid === o.uid && st.gid === o.gid;

  return {
    path: file,
    /** The text when the file is the gateway user's private regular file; else null, so a sync writes it again. */
    async read() {
      const [o, now] = await Promise.all([ownerOf(), current()]);
      return now && private_(now.stat, o) ? now.data.toString('utf8') : null;
    },
    async write(text: string) {
      const o = await ownerOf();
      const data = Buffer.from(text, 'utf8');
      const tar = buildTar([{ type: 'file', name: SECRETS_TEMP, data, mode: 0o600, uid: o.uid, gid: o.gid, mtime: new Date() }]);
      await putContainerTar(d, container, stateDir, tar, { ownersFromTar: true });
      try {
        await rename(dir, SECRETS_TEMP, SECRETS_FILE);
      } catch (e) {
        await removeTree(dir, SECRETS_TEMP).catch(() => undefined);
        throw e;
      }
      const after = await current();
      if (!after?.data.equals(data) || !private_(after.stat, o))
        throw new AppError(
          'upstream_error',
          `The engine did not keep ${file} in the container ${container} as the gateway user's private file (mode 0600, uid ${o.uid}).`,
          { hint: 'An engine with user-namespace remapping or rootless Docker may change owners on unpack; connect the gateway through its RPC instead.' },
        );
    },
  };
}
