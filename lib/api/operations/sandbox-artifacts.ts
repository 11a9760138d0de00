import 'server-only';
import { Readable } from 'node:stream';
import { defineOperation } from '../../http/operation';
import { contentDisposition, listArtifacts, openArtifact } from '../../sandbox/artifacts/query';
import { api } from '../contracts';

/** Collected artifacts of sandboxes: lists and one file's download. */
export const sandboxArtifactOps = {
  listSandboxArtifacts: defineOperation(api.listSandboxArtifacts, async ({ services, query }) => listArtifacts(services.database.db, query)),
  listConfigArtifacts: defineOperation(api.listConfigArtifacts, async ({ services, params, query }) =>
    listArtifacts(services.database.db, { ...query, configId: params.id }),
  ),
  listInstanceArtifacts: defineOperation(api.listInstanceArtifacts, async ({ services, params, query }) => {
    const { scope, ...rest } = query;
    return listArtifacts(services.database.db, scope === 'sandbox' ? { ...rest, sandbox: params.id } : { ...rest, session: params.id });
  }),
  downloadSandboxArtifact: defineOperation(
    api.downloadSandboxArtifact,
    async ({ services, params }) => {
      const f = await openArtifact(services.database.db, params.fileId);
      return new Response(Readable.toWeb(f.stream) as ReadableStream, {
        headers: {
          'content-type': 'application/octet-stream',
          'content-length': String(f.size),
          'content-disposition': contentDisposition(f.name),
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
          etag: `"${f.sha256}"`,
        },
      });
    },
    { restOnly: true },
  ),
};
