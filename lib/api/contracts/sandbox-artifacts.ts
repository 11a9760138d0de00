import { defineContract } from '../../http/contract';
import { artifactFileParams, artifactListOut, artifactListQuery, configArtifactsQuery, sandboxArtifactsQuery } from '../../sandbox/artifacts/schema';
import { configIdParams } from '../../sandbox/config/schema';
import { instanceIdParams } from '../../sandbox/instances/schema';

const tag = 'Sandbox artifacts';
const what =
  'Before Skilldock recycles or removes a sandbox (a recycle, a next_turn recycle, a remove, the idle sweep) it collects /workspace/output through the engine’s archive API into the database (capped in bytes and files; each collection says what it left out). Each file is one row; `collections` lists the collections in scope with their status and note.';

/** Collected artifacts: what sandboxes left in /workspace/output before they were recycled or removed. */
export const sandboxArtifactsApi = {
  listSandboxArtifacts: defineContract({
    method: 'GET',
    path: '/api/v1/sandbox-artifacts',
    tag,
    summary: 'Files collected from sandboxes’ /workspace/output, searched by file name, paged; narrowed by config, sandbox, session or owner',
    description: what,
    permission: 'sandboxes.read',
    query: artifactListQuery,
    response: artifactListOut,
  }),
  listConfigArtifacts: defineContract({
    method: 'GET',
    path: '/api/v1/sandbox-configs/{id}/artifacts',
    tag,
    summary: 'Files collected from the sandboxes of one config (?q= searches file names; paged)',
    description: what,
    permission: 'sandboxes.read',
    params: configIdParams,
    query: configArtifactsQuery,
    response: artifactListOut,
  }),
  listInstanceArtifacts: defineContract({
    method: 'GET',
    path: '/api/v1/sandboxes/{id}/artifacts',
    tag,
    summary: 'Files collected from one sandbox, or from its whole session (every sandbox of its chain of recycles); works after the sandbox is gone',
    description: what,
    permission: 'sandboxes.read',
    params: instanceIdParams,
    query: sandboxArtifactsQuery,
    response: artifactListOut,
  }),
  downloadSandboxArtifact: defineContract({
    method: 'GET',
    path: '/api/v1/sandbox-artifacts/{fileId}/content',
    tag,
    summary: 'Download one collected file (its exact bytes, checked against their sha256 as they stream)',
    description: 'Needs sandboxes.run, as downloading from a running sandbox does.',
    permission: 'sandboxes.run',
    params: artifactFileParams,
    produces: 'application/octet-stream',
  }),
} as const;
