import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DeferringAbortController } from '../../../core/critical';
import { isRoot, runSystem } from './exec';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-sysexec-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const CHILD = `const fs = require('fs');
const [marker, go] = process.argv.slice(1);
fs.writeFileSync(marker, 'started');
const t = setInterval(() => { if (fs.existsSync(go)) { clearInterval(t); fs.writeFileSync(marker, 'done'); } }, 20);`;

// As root runSystem runs the command itself (not through sudo), so any program stands in for apt-get.
describe.skipIf(!isRoot())('system manager commands', () => {
  it.each([
    [false, 'done', 0],
    [true, 'started', null],
  ] as const)(
    'a package transaction is never interrupted by a cancel or shutdown; a read-only query is (unprivileged: %s)',
    async (unprivileged, final, code) => {
      const [marker, go] = [path.join(tmp, `${unprivileged}-marker`), path.join(tmp, `${unprivileged}-go`)];
      const controller = new DeferringAbortController();
      const run = runSystem({ runtimeDir: tmp, signal: controller.signal }, process.execPath, ['-e', CHILD, marker, go], { unprivileged });
      while (!(fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === 'started')) await new Promise((r) => setTimeout(r, 20));
      controller.abort();
      fs.writeFileSync(go, '');
      const r = await run;
      expect(r.code).toBe(code);
      expect(fs.readFileSync(marker, 'utf8')).toBe(final);
    },
  );
});
