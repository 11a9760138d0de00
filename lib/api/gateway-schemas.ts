// What the gateway routes answer.
import { z } from 'zod';

const list = z.array(z.string()).nullable();

export const gatewayStatusOut = z
  .object({
    checkedAt: z.string(),
    reachable: z.boolean(),
    configValid: z.boolean().nullable(),
    version: z.string().nullable(),
    readOnly: z.boolean(),
    error: z.string().nullable(),
  })
  .nullable();

export const driftOut = z.object({
  checkedAt: z.string(),
  count: z.number().int(),
  pending: z.array(z.string()).describe('Changes a sync would make (a hand edit of the gateway shows here)'),
  agents: z.array(
    z.object({
      agentId: z.string(),
      inSync: z.boolean(),
      differences: z.array(
        z.object({
          skill: z.string(),
          ours: z.object({ visible: z.boolean(), why: z.string() }),
          theirs: z.object({ visible: z.boolean(), why: z.string() }),
        }),
      ),
    }),
  ),
});

export const gatewayOut = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['openclaw', 'folder']),
  location: z.record(z.string(), z.unknown()).describe("Where it lives; a remote gateway's token is shown as ***"),
  agentIds: z.array(z.string()).describe('Gateway agents linked to Skilldock agents of the same id'),
  autoSync: z.boolean(),
  status: gatewayStatusOut,
  drift: driftOut.nullable(),
  lastSync: z.object({ at: z.string(), jobId: z.string().nullable(), ok: z.boolean(), changes: z.number().int(), message: z.string() }).nullable(),
  revision: z.number().int(),
  createdAt: z.string(),
  createdBy: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
});
export const gatewayListOut = z.object({ items: z.array(gatewayOut), roots: z.array(z.string()).describe('SKILLDOCK_GATEWAY_ROOTS') });

export const adoptPreviewOut = z.object({
  agents: z.array(
    z.object({ id: z.string(), action: z.enum(['create', 'update', 'same', 'skip']), gateway: list, skilldock: list, why: z.string().optional() }),
  ),
  defaults: z.object({ action: z.enum(['update', 'same']), gateway: list, skilldock: list }),
  entries: z.array(
    z.object({
      key: z.string(),
      action: z.enum(['set', 'same', 'skip']),
      enabled: z.boolean().nullable(),
      env: z.array(z.string()),
      apiKey: z.enum(['plain', 'reference']).nullable(),
      why: z.string().optional(),
    }),
  ),
  notes: z.array(z.string()),
});
export const adoptOut = z.object({ adopted: z.array(z.string()), preview: adoptPreviewOut, gateway: gatewayOut });

export const syncPlanOut = z.object({
  dryRun: z.literal(true),
  changes: z.number().int(),
  configChanges: z.array(z.string()),
  folders: z.array(z.object({ op: z.enum(['write', 'remove']), name: z.string(), why: z.string() })),
  conflicts: z.array(z.string()),
  notes: z.array(z.string()),
  readOnly: z.boolean(),
  patch: z.string().describe("The config merge patch (JSON), for a read-only gateway's deployment system"),
});
export const syncStartedOut = z.object({ dryRun: z.literal(false), jobId: z.string(), coalesced: z.boolean() });
export const syncOut = z.union([syncPlanOut, syncStartedOut]);

export const folderClientOut = z.object({
  agentId: z.string(),
  clientId: z.string(),
  host: z.string(),
  dir: z.string(),
  mode: z.enum(['events', 'polling', 'once', 'check']),
  pollMs: z.number().int(),
  blocked: z.number().int().describe('Skills its last pass could not write'),
  version: z.string().nullable().describe('The agent version it was last served'),
  currentVersion: z.string().nullable(),
  via: z.string().describe('The token or user it authenticated as'),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  status: z.enum(['in-step', 'behind', 'blocked', 'silent']),
  summary: z.string(),
});
export const folderClientListOut = z.object({ clients: z.array(folderClientOut) });
