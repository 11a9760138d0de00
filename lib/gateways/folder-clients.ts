// The status of `skilldock sync` clients (the folder kind of gateway): each reports itself with a
// header on its requests (folder/client-header.ts); the server keeps one row per agent and client,
// touched at most every TOUCH_EVERY_S seconds when nothing about it changed, so polling clients
// cost few writes. Rows live in the database, so every replica sees every client.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { folderClients } from '@/db/schema';
import { recordAudit } from '../audit/audit';
import type { Actor } from '../auth/actor';
import { AppError, notFound } from '../core/errors';
import { CLIENT_HEADER, type ClientMode, type FolderClientReport, parseClientHeader } from './folder/client-header';

const TOUCH_EVERY_S = 30;
/** An event-stream client is touched with each heartbeat; silent after this long without one. */
const EVENTS_SILENT_MS = 3 * 60_000;
const MIN_SILENT_MS = 90_000;

export type FolderClientStatus = 'in-step' | 'behind' | 'blocked' | 'silent';

export interface FolderClientView {
  agentId: string;
  clientId: string;
  host: string;
  dir: string;
  mode: ClientMode;
  pollMs: number;
  blocked: number;
  version: string | null;
  currentVersion: string | null;
  via: string;
  firstSeenAt: string;
  lastSeenAt: string;
  status: FolderClientStatus;
  /** One sentence for the status, for the table and for scripts. */
  summary: string;
}

/** The report a request carries; null without the header, a validation error when it is malformed. */
export function clientReportOf(req: { headers: { get(name: string): string | null } } | undefined): FolderClientReport | null {
  const value = req?.headers.get(CLIENT_HEADER);
  if (value == null) return null;
  const r = parseClientHeader(value);
  if (typeof r === 'string') {
    throw new AppError('validation', `The ${CLIENT_HEADER} header ${r}.`, {
      hint: 'It is sent by skilldock sync; update the command, or leave the header out.',
    });
  }
  return r;
}

/** Records a report (the mode given overrides the client's: a request on the event stream means it follows events). */
export async function recordFolderClient(db: AppDb, agentId: string, r: FolderClientReport, o: { version: string | null; via: string; mode?: ClientMode }) {
  const row = {
    agentId,
    clientId: r.id,
    host: r.host,
    dir: r.dir,
    mode: o.mode ?? r.mode,
    pollMs: r.pollMs,
    blocked: r.blocked,
    version: o.version,
    via: o.via,
  };
  const t = folderClients;
  await db
    .insert(t)
    .values(row)
    .onConflictDoUpdate({
      target: [t.agentId, t.clientId],
      set: {
        host: row.host,
        dir: row.dir,
        mode: row.mode,
        pollMs: row.pollMs,
        blocked: row.blocked,
        version: sql`coalesce(excluded.version, ${t.version})`,
        via: row.via,
        lastSeenAt: sql`now()`,
      },
      setWhere: sql`${t.host} <> excluded.host or ${t.dir} <> excluded.dir or ${t.mode} <> excluded.mode or ${t.pollMs} <> excluded.poll_ms
        or ${t.blocked} <> excluded.blocked or (excluded.version is not null and ${t.version} is distinct from excluded.version)
        or ${t.via} <> excluded.via or ${t.lastSeenAt} < now() - make_interval(secs => ${TOUCH_EVERY_S})`,
    });
}

function statusOf(r: typeof folderClients.$inferSelect, current: string | null, now: number): { status: FolderClientStatus; summary: string } {
  const age = now - r.lastSeenAt.getTime();
  const quietFor = r.mode === 'events' ? EVENTS_SILENT_MS : r.mode === 'polling' ? Math.max(3 * r.pollMs, MIN_SILENT_MS) + TOUCH_EVERY_S * 1000 : null;
  if (quietFor !== null && age > quietFor) {
    return { status: 'silent', summary: `Not heard from for ${Math.round(age / 60_000)} min: the command may have stopped.` };
  }
  if (r.blocked > 0)
    return { status: 'blocked', summary: `Its last pass could not write ${r.blocked} skill${r.blocked === 1 ? '' : 's'}; see the command's output.` };
  if (current !== null && r.version === current) {
    const how = r.mode === 'events' ? 'follows the event stream' : r.mode === 'polling' ? `polls every ${r.pollMs} ms` : `ran with --${r.mode}`;
    return { status: 'in-step', summary: `Holds the agent's current skills; ${how}.` };
  }
  return {
    status: 'behind',
    summary:
      r.mode === 'once' || r.mode === 'check'
        ? 'Ran before the agent last changed: run it again.'
        : 'Was last served an older version; it catches up on its next pass.',
  };
}

/** Every folder client (of one agent, or all), with its status against the agent's current version. */
export async function listFolderClients(db: AppDb, currentVersion: (agentId: string) => Promise<string | null>, agentId?: string): Promise<FolderClientView[]> {
  const rows = await db
    .select()
    .from(folderClients)
    .where(agentId ? eq(folderClients.agentId, agentId) : undefined)
    .orderBy(asc(folderClients.agentId), asc(folderClients.host), asc(folderClients.dir));
  const versions = new Map<string, string | null>();
  for (const id of new Set(rows.map((r) => r.agentId))) versions.set(id, await currentVersion(id));
  const now = Date.now();
  return rows.map((r) => {
    const current = versions.get(r.agentId) ?? null;
    return {
      agentId: r.agentId,
      clientId: r.clientId,
      host: r.host,
      dir: r.dir,
      mode: r.mode,
      pollMs: r.pollMs,
      blocked: r.blocked,
      version: r.version,
      currentVersion: current,
      via: r.via,
      firstSeenAt: r.firstSeenAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
      ...statusOf(r, current, now),
    };
  });
}

/** Forgets a client (it reappears when it runs again); audited. */
export async function forgetFolderClient(db: AppDb, actor: Actor, agentId: string, clientId: string): Promise<{ deleted: true }> {
  await db.transaction(async (tx) => {
    const where = and(eq(folderClients.agentId, agentId), eq(folderClients.clientId, clientId));
    const [row] = await tx.select().from(folderClients).where(where);
    if (!row) throw notFound(`No folder client ${clientId} of agent "${agentId}".`);
    await tx.delete(folderClients).where(where);
    await recordAudit(tx, actor, {
      action: 'gateway.folder_client.forget',
      targetType: 'agent',
      targetId: agentId,
      before: { clientId, host: row.host, dir: row.dir, mode: row.mode },
    });
  });
  return { deleted: true };
}
