import 'server-only';
import { Readable } from 'node:stream';
import { AppError } from '../../core/errors';
import { defineOperation } from '../../http/operation';
import { readBodyCapped } from '../../http/request';
import { listInstanceFiles, readInstanceFile, uploadInstanceFile } from '../../sandbox/instances/files';
import { execInInstance, getInstance, listInstances, recycleInstance, removeInstance, startInstance } from '../../sandbox/instances/service';
import { instanceStats } from '../../sandbox/instances/stats';
import { api } from '../contracts';

const MAX_DOWNLOAD = 256 * 1024 * 1024;
const FILENAME = /^[A-Za-z0-9._-][A-Za-z0-9._ -]{0,199}$/;

/** The x-filename of an upload: one plain file name (decoded), refused before any byte is read otherwise. */
function uploadName(raw: string | null): string {
  let name = raw ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    name = '';
  }
  if (!FILENAME.test(name) || name === '.' || name === '..')
    throw new AppError('validation', 'Send the file name in x-filename: letters, digits, ".", "_", "-" and spaces (at most 200).', {
      issues: [{ path: 'x-filename', message: 'Not a plain file name.' }],
    });
  return name;
}

/** The full check of a config and the sandboxes started from configs. */
export const sandboxInstanceOps = {
  checkSandboxConfig: defineOperation(api.checkSandboxConfig, async ({ services, actor, params }) => services.sandboxConfigs.check(actor, params.id)),
  testSandboxConnection: defineOperation(api.testSandboxConnection, async ({ services, body }) => services.sandboxConfigs.testConnection(body)),
  sandboxStats: defineOperation(api.sandboxStats, async ({ services, params }) => instanceStats(services.sandboxes, params.id)),
  listSandboxes: defineOperation(api.listSandboxes, async ({ services, query }) => listInstances(services.sandboxes, query)),
  startSandbox: defineOperation(api.startSandbox, async ({ services, actor, body }) => startInstance(services.sandboxes, actor, body.configId)),
  getSandbox: defineOperation(api.getSandbox, async ({ services, params }) => getInstance(services.sandboxes, params.id)),
  removeSandbox: defineOperation(api.removeSandbox, async ({ services, actor, params }) => {
    // Its terminals end first, so they close as "sandbox gone" rather than as a shell that died.
    await services.terminals.closeForSandbox(params.id);
    return removeInstance(services.sandboxes, actor, params.id);
  }),
  execSandbox: defineOperation(api.execSandbox, async ({ services, actor, params, body }) =>
    execInInstance(services.sandboxes, actor, params.id, body, { beforeRemove: (old) => services.terminals.closeForSandbox(old) }),
  ),
  recycleInstance: defineOperation(api.recycleInstance, async ({ services, actor, params }) =>
    recycleInstance(services.sandboxes, actor, params.id, { beforeRemove: (old) => services.terminals.closeForSandbox(old) }),
  ),
  listSandboxFiles: defineOperation(api.listSandboxFiles, async ({ services, params, query }) => {
    const r = await listInstanceFiles(services.sandboxes, params.id, query.path);
    return { path: r.path, entries: r.entries.map((e) => ({ ...e, modifiedAt: e.modifiedAt ? e.modifiedAt.toISOString() : null })) };
  }),
  downloadSandboxFile: defineOperation(
    api.downloadSandboxFile,
    async ({ services, params, query }) => {
      const { path, stream } = await readInstanceFile(services.sandboxes, params.id, query.path, MAX_DOWNLOAD);
      const name = path.split('/').pop() || 'file';
      return new Response(Readable.toWeb(stream) as ReadableStream, {
        headers: {
          'content-type': 'application/octet-stream',
          'content-disposition': `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        },
      });
    },
    { restOnly: true },
  ),
  uploadSandboxFile: defineOperation(
    api.uploadSandboxFile,
    async ({ services, actor, params, req }) => {
      const r = req!;
      const name = uploadName(r.headers.get('x-filename'));
      const data = await readBodyCapped(r, api.uploadSandboxFile.maxBodyBytes);
      return uploadInstanceFile(services.sandboxes, actor, params.id, name, data);
    },
    { restOnly: true },
  ),
};
