import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DeferringAbortController, runCritical } from './critical';
import { runProcess } from './process';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-critical-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// Writes "started", waits for the go-file, writes "done".
const CHILD = `const fs = require('fs');
const [marker, go] = process.argv.slice(1);
fs.writeFileSync(marker, 'started');
const t = setInterval(() => { if (fs.existsSync(go)) { clearInterval(t); fs.writeFileSync(marker, 'done'); } }, 20);`;

async function started(marker: string): Promise<void> {
  while (!(fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === 'started')) await new Promise((r) => setTimeout(r, 20));
}

describe('critical steps', () => {
  it('an abort waits for a critical process to end, then fires', async () => {
    const [marker, go] = [path.join(tmp, 'a-marker'), path.join(tmp, 'a-go')];
    const controller = new DeferringAbortController();
    const run = runProcess(process.execPath, ['-e', CHILD, marker, go], { signal: controller.signal, critical: true, killGraceMs: 100 });
    await started(marker);
    controller.abort(new Error('shutdown'));
    expect(controller.signal.aborted).toBe(false);
    fs.writeFileSync(go, '');
    const r = await run;
    expect(r).toMatchObject({ code: 0, aborted: false });
    expect(fs.readFileSync(marker, 'utf8')).toBe('done');
    expect(controller.signal.aborted).toBe(true);
    expect(controller.deferred).toBe(true);
  });

  it('the same process without the flag is stopped at once', async () => {
    const [marker, go] = [path.join(tmp, 'b-marker'), path.join(tmp, 'b-go')];
    const controller = new DeferringAbortController();
    const run = runProcess(process.execPath, ['-e', CHILD, marker, go], { signal: controller.signal, killGraceMs: 100 });
    await started(marker);
    controller.abort();
    fs.writeFileSync(go, '');
    expect(await run).toMatchObject({ aborted: true });
    expect(fs.readFileSync(marker, 'utf8')).toBe('started');
  });

  it('a critical process is never started once the signal is aborted', async () => {
    const marker = path.join(tmp, 'c-marker');
    const controller = new DeferringAbortController();
    controller.abort();
    const r = await runProcess(process.execPath, ['-e', CHILD, marker, marker], { signal: controller.signal, critical: true });
    expect(r).toMatchObject({ aborted: true, code: null, signal: null });
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('nested sections hold the abort until the outermost ends; a plain signal is left alone', async () => {
    const controller = new DeferringAbortController();
    await controller.critical(async () => {
      await runCritical(controller.signal, async () => controller.abort('x'));
      expect(controller.signal.aborted).toBe(false);
    });
    expect(controller.signal.reason).toBe('x');
    const plain = new AbortController();
    await runCritical(plain.signal, async () => plain.abort());
    expect(plain.signal.aborted).toBe(true);
  });
});
