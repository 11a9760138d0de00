// Gateways as rows: create, read, edit (by revision), delete — each write audited in the same
// transaction, a remote gateway's token sealed and only ever shown masked.
import { and, asc, eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { gateways, type StoredGatewayLocation } from '@/db/schema';
import { recordAudit } from '../audit/audit';
import type { Actor } from '../auth/actor';
import { AppError, notFound } from '../core/errors';
import { randomToken } from '../core/ids';
import { MASK, type SecretBox } from '../secrets/crypto';
import type { CreateGatewayInput, GatewayLocationInput, PatchGatewayInput } from './schema';

export type GatewayRow = typeof gateways.$inferSelect;
type Tx = Parameters<Parameters<AppDb['transaction']>[0]>[0];

export interface GatewayStoreDeps {
  db: AppDb;
  box: SecretBox;
  /** Checks a location before it is stored (roots, reachability of what it names); throws a typed error. */
  checkLocation: (loc: StoredGatewayLocation) => Promise<void>;
}

const tokenContext = (id: string) => `gateway:${id}:token`;

/** The location as it is stored (no token) and the token to seal, if the input carries a new one. */
function splitLocation(loc: GatewayLocationInput): { stored: StoredGatewayLocation; token: string | null } {
  if (loc.type === 'remote') return { stored: { type: 'remote', url: loc.url }, token: loc.token === MASK ? null : loc.token };
  return { stored: loc as StoredGatewayLocation, token: null };
}

export function gatewayView(row: GatewayRow) {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    location: row.location.type === 'remote' ? { ...row.location, token: row.tokenSealed ? MASK : null } : row.location,
    agentIds: row.agentIds,
    autoSync: row.autoSync,
    status: row.status,
    drift: row.drift,
    lastSync: row.lastSync,
    revision: row.revision,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  };
}
export type GatewayView = ReturnType<typeof gatewayView>;

const auditForm = (r: GatewayRow) => ({
  name: r.name,
  kind: r.kind,
  location: r.location,
  agentIds: r.agentIds,
  autoSync: r.autoSync,
  token: r.tokenSealed ? MASK : null,
});

export async function loadGateway(db: AppDb | Tx, id: string): Promise<GatewayRow> {
  const [row] = await db.select().from(gateways).where(eq(gateways.id, id));
  if (!row) throw notFound(`Gateway ${id}`);
  return row;
}

export const listGatewayRows = (db: AppDb) => db.select().from(gateways).orderBy(asc(gateways.name));

export async function gatewayToken(box: SecretBox, row: GatewayRow): Promise<string | null> {
  return row.tokenSealed ? box.open(row.tokenSealed, tokenContext(row.id)) : null;
}

async function nameFree(db: AppDb | Tx, name: string, except?: string) {
  const [other] = await db.select({ id: gateways.id }).from(gateways).where(eq(gateways.name, name));
  if (other && other.id !== except)
    throw new AppError('exists', `A gateway named "${name}" already exists.`, { issues: [{ path: 'name', message: 'This name is taken.' }] });
}

export async function createGateway(deps: GatewayStoreDeps, actor: Actor, input: CreateGatewayInput): Promise<GatewayView> {
  const { stored, token } = splitLocation(input.location);
  if (stored.type === 'remote' && !token)
    throw new AppError('validation', 'Enter the gateway token.', { issues: [{ path: 'location.token', message: 'Required.' }] });
  await deps.checkLocation(stored);
  const id = `gw_${randomToken(12)}`;
  const row = await deps.db.transaction(async (tx) => {
    await nameFree(tx, input.name);
    const [r] = await tx
      .insert(gateways)
      .values({
        id,
        name: input.name,
        kind: input.kind,
        location: stored,
        tokenSealed: token ? deps.box.seal(token, tokenContext(id)) : null,
        autoSync: input.autoSync,
        createdBy: actor.label,
        updatedBy: actor.label,
      })
      .returning();
    await recordAudit(tx, actor, { action: 'gateway.create', targetType: 'gateway', targetId: id, after: auditForm(r as GatewayRow) });
    return r as GatewayRow;
  });
  return gatewayView(row);
}

const stale = (sent: number, current: number) =>
  new AppError('conflict', `This gateway was changed by someone else (revision ${current}, this edit started from ${sent}); reload it and edit again.`, {
    details: { revision: current, sent },
  });

export async function patchGateway(deps: GatewayStoreDeps, actor: Actor, id: string, input: PatchGatewayInput): Promise<GatewayView> {
  const { revision, location, ...rest } = input;
  const split = location ? splitLocation(location) : null;
  if (split) await deps.checkLocation(split.stored);
  const row = await deps.db.transaction(async (tx) => {
    const before = await loadGateway(tx, id);
    if (before.revision !== revision) throw stale(revision, before.revision);
    if (rest.name) await nameFree(tx, rest.name, id);
    const keepToken = split?.stored.type === 'remote' && before.location.type === 'remote' && split.token === null;
    // A new URL never gets the stored token: a key is only sent where it was entered for.
    if (keepToken && split.stored.type === 'remote' && before.location.type === 'remote' && split.stored.url !== before.location.url)
      throw new AppError('validation', 'Enter the token again when the gateway URL changes.', {
        issues: [{ path: 'location.token', message: 'Required for a new URL.' }],
      });
    const tokenSealed = !split ? before.tokenSealed : split.token ? deps.box.seal(split.token, tokenContext(id)) : keepToken ? before.tokenSealed : null;
    const [after] = await tx
      .update(gateways)
      .set({
        ...(rest.name !== undefined ? { name: rest.name } : {}),
        ...(rest.autoSync !== undefined ? { autoSync: rest.autoSync } : {}),
        ...(rest.agentIds !== undefined ? { agentIds: [...new Set(rest.agentIds)].sort() } : {}),
        ...(split ? { location: split.stored, tokenSealed, status: null, drift: null } : {}),
        revision: before.revision + 1,
        updatedAt: new Date(),
        updatedBy: actor.label,
      })
      .where(and(eq(gateways.id, id), eq(gateways.revision, revision)))
      .returning();
    if (!after) throw stale(revision, (await loadGateway(tx, id)).revision);
    await recordAudit(tx, actor, { action: 'gateway.update', targetType: 'gateway', targetId: id, before: auditForm(before), after: auditForm(after) });
    return after;
  });
  return gatewayView(row);
}

export async function deleteGateway(deps: Pick<GatewayStoreDeps, 'db'>, actor: Actor, id: string): Promise<{ deleted: true }> {
  await deps.db.transaction(async (tx) => {
    const row = await loadGateway(tx, id);
    await tx.delete(gateways).where(eq(gateways.id, id));
    await recordAudit(tx, actor, { action: 'gateway.delete', targetType: 'gateway', targetId: id, before: auditForm(row) });
  });
  return { deleted: true };
}

/** Records what a check, a sync or a drift check found (not an operator's write: no audit row). */
export async function recordGatewayState(db: AppDb, id: string, set: Partial<Pick<GatewayRow, 'status' | 'drift' | 'lastSync' | 'owned' | 'syncedKey'>>) {
  await db.update(gateways).set(set).where(eq(gateways.id, id));
}
