// test-phase: pglite only. Its subject is PGlite's folder lock, the same whatever the phase.
// PGlite has no lock of its own: a second open of the same folder, in any process, is refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { isAppError } from '@/lib/core/errors';
import { openDatabase } from './client';

const tmp = fs.mkdtempSync(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'skilldock-pglock-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

it('refuses a second PGlite on an open folder, naming the holder, and opens again after close', async () => {
  const pgliteDir = path.join(tmp, 'pglite');
  const first = await openDatabase({ pgliteDir });
  const second = await openDatabase({ pgliteDir }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(isAppError(second) && second.code).toBe('conflict');
  expect((second as Error).message).toContain(`pid ${process.pid}`);
  expect(await first.rows<{ one: number }>(sql`select 1 as one`)).toEqual([{ one: 1 }]);
  await first.close();
  const again = await openDatabase({ pgliteDir });
  await again.close();
}, 120_000);
