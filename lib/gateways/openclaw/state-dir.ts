// A local gateway's state folder must be an OpenClaw state folder inside the roots the admin
// allowed (SKILLDOCK_GATEWAY_ROOTS), checked on its real path so a symlink cannot lead outside.
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../core/errors';

export const CONFIG_FILE = 'openclaw.json';
/** OpenClaw refuses config files over this size; Skilldock reads no more. */
export const MAX_CONFIG_BYTES = 8 * 1024 * 1024;

const inside = (child: string, root: string) => child === root || child.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

const refuse = (message: string, hint?: string) =>
  new AppError('validation', message, { issues: [{ path: 'location.stateDir', message }], ...(hint ? { hint } : {}) });

/** The state folder's real path, when it is an OpenClaw state folder inside the gateway roots. */
export async function checkStateDir(stateDir: string, roots: readonly string[]): Promise<string> {
  if (!roots.length)
    throw refuse(
      'No gateway roots are configured on this server, so no local gateway can be connected.',
      'Set SKILLDOCK_GATEWAY_ROOTS to the folders that hold gateway state folders, then restart Skilldock.',
    );
  const lst = await fs.lstat(stateDir).catch(() => null);
  if (!lst) throw refuse(`${stateDir} does not exist on this host.`);
  if (lst.isSymbolicLink()) throw refuse(`${stateDir} is a symbolic link; give the state folder's real path.`);
  const real = await fs.realpath(stateDir);
  const canon: string[] = [];
  for (const r of roots) {
    const c = await fs.realpath(r).catch(() => null);
    if (c) canon.push(c);
  }
  if (real !== path.resolve(stateDir)) throw refuse(`${stateDir} resolves to ${real} through a symbolic link; give the real path.`);
  if (!canon.some((r) => inside(real, r))) throw refuse(`${stateDir} is outside the gateway roots (${canon.join(', ') || 'none exist'}).`);
  if (!lst.isDirectory()) throw refuse(`${stateDir} is not a folder.`);
  const cfg = await fs.lstat(path.join(real, CONFIG_FILE)).catch(() => null);
  if (!cfg?.isFile())
    throw refuse(
      `${stateDir} is not an OpenClaw state folder: it has no ${CONFIG_FILE}.`,
      'Point at the folder `openclaw config file` names the parent of (OPENCLAW_STATE_DIR, by default ~/.openclaw).',
    );
  return real;
}
