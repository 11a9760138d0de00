// test-phase: both engines. Its subject is single-use tickets, an atomic update on each engine.
// Terminal tickets in the database on the engine of the run: only the hash is stored, concurrent
// redeems of one ticket let exactly one through, every refusal of the in-memory store holds, and
// rows past one more lifetime are swept.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { terminalTickets } from '@/db/schema';
import { isAppError } from '@/lib/core/errors';
import { type TestDatabase, testDatabaseUrl } from '@/test/helpers/db';
import type { TicketClaims } from './ticket';
import { DbTicketStore } from './ticket-db';

const ORIGIN = 'https://console.example';
const CLAIMS: TicketClaims = { userId: 'u1', sandboxId: 'sbx-1', origin: ORIGIN, sessionId: 's-1' };
const EXPECT = { origin: ORIGIN, sandboxId: 'sbx-1' };
const refusalOf = (r: unknown) => (isAppError(r) ? r.details?.refusal : 'accepted');

describe('DbTicketStore', () => {
  let tdb: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    tdb = await testDatabaseUrl();
    database = await openDatabase({ databaseUrl: tdb.url, pgliteDir: path.join(tdb.dataDir ?? '', 'pglite') });
    if (tdb.url) await migrateDatabase(database);
  });
  afterAll(async () => {
    await database?.close();
    await tdb?.cleanup();
  });

  it('stores only the hash and redeems once, even when two redeems race', async () => {
    const store = new DbTicketStore(database.db);
    const other = new DbTicketStore(database.db);
    const { ticket } = await store.issue(CLAIMS);
    const rows = await database.db.select().from(terminalTickets);
    expect(JSON.stringify(rows)).not.toContain(ticket);
    const results = await Promise.all([store.redeem(ticket, EXPECT), other.redeem(ticket, EXPECT), other.redeem(ticket, EXPECT)]);
    expect(results.map(refusalOf).sort()).toEqual(['accepted', 'reused', 'reused']);
    expect(results.find((r) => !isAppError(r))).toEqual(CLAIMS);
  });

  it('keeps every refusal: missing, unknown, expired, other sandbox, wrong origin; a refused ticket is spent', async () => {
    let now = Date.now();
    const store = new DbTicketStore(database.db, { now: () => now });
    expect(refusalOf(await store.redeem(null, EXPECT))).toBe('missing');
    expect(refusalOf(await store.redeem('x', EXPECT))).toBe('unknown');
    expect(refusalOf(await store.redeem('A'.repeat(43), EXPECT))).toBe('unknown');
    const a = await store.issue(CLAIMS);
    expect(refusalOf(await store.redeem(a.ticket, { ...EXPECT, sandboxId: 'sbx-2' }))).toBe('other_sandbox');
    expect(refusalOf(await store.redeem(a.ticket, EXPECT))).toBe('reused');
    const b = await store.issue(CLAIMS);
    expect(refusalOf(await store.redeem(b.ticket, { ...EXPECT, origin: 'https://evil.example' }))).toBe('wrong_origin');
    const c = await store.issue(CLAIMS);
    now += 60_000;
    expect(refusalOf(await store.redeem(c.ticket, EXPECT))).toBe('expired');
    expect(refusalOf(await store.redeem(c.ticket, EXPECT))).toBe('reused');
  });

  it('remembers a spent ticket for one more lifetime, then sweeps it', async () => {
    let now = Date.now();
    const store = new DbTicketStore(database.db, { now: () => now });
    const { ticket } = await store.issue(CLAIMS);
    await store.redeem(ticket, EXPECT);
    now += 2 * 60_000 - 1;
    await store.sweep(true);
    expect(refusalOf(await store.redeem(ticket, EXPECT))).toBe('reused');
    now += 2;
    expect(await store.sweep(true)).toBeGreaterThanOrEqual(1);
    expect(refusalOf(await store.redeem(ticket, EXPECT))).toBe('unknown');
  });
});
