import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { zipBuffer } from './zip';

/** Builds pure-python wheels for tests: the machines reach no package index, so pip installs these with --no-index --find-links. */

export interface WheelOptions {
  /** Project name as published, e.g. `skd-demo`. */
  name: string;
  version: string;
  /** Files of the wheel's root (purelib), e.g. `{ 'skd_demo/__init__.py': '__version__ = "1.0.0"' }`. */
  modules: Record<string, string>;
  summary?: string;
  requires?: string[];
  /** Console scripts: script name → `module:function`. */
  consoleScripts?: Record<string, string>;
}

/** `skd-demo` → `skd_demo`, the escaped name used in wheel file names and dist-info dirs. */
export function wheelEscape(name: string): string {
  return name.replace(/[-_.]+/g, '_');
}

function recordHash(data: Buffer): string {
  return `sha256=${crypto.createHash('sha256').update(data).digest('base64url')}`;
}

/** Writes `{name}-{version}-py3-none-any.whl` into `dir` and returns its path. */
export async function buildWheel(dir: string, opts: WheelOptions): Promise<string> {
  const base = `${wheelEscape(opts.name)}-${opts.version}`;
  const distInfo = `${base}.dist-info`;
  const metadata = [
    'Metadata-Version: 2.1',
    `Name: ${opts.name}`,
    `Version: ${opts.version}`,
    `Summary: ${opts.summary ?? `${opts.name} test package`}`,
    ...(opts.requires ?? []).map((r) => `Requires-Dist: ${r}`),
    '',
    `# ${opts.name}`,
    '',
  ].join('\n');
  const files: { name: string; data: Buffer }[] = Object.entries(opts.modules).map(([name, text]) => ({ name, data: Buffer.from(text) }));
  files.push({ name: `${distInfo}/METADATA`, data: Buffer.from(metadata) });
  files.push({ name: `${distInfo}/WHEEL`, data: Buffer.from('Wheel-Version: 1.0\nGenerator: skilldock-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n') });
  const scripts = Object.entries(opts.consoleScripts ?? {});
  if (scripts.length) {
    const lines = scripts.map(([script, target]) => `${script} = ${target}`);
    files.push({ name: `${distInfo}/entry_points.txt`, data: Buffer.from(`[console_scripts]\n${lines.join('\n')}\n`) });
  }
  const record = files.map((f) => `${f.name},${recordHash(f.data)},${f.data.length}`).concat(`${distInfo}/RECORD,,`, '');
  files.push({ name: `${distInfo}/RECORD`, data: Buffer.from(record.join('\n')) });
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${base}-py3-none-any.whl`);
  fs.writeFileSync(file, await zipBuffer(files));
  return file;
}
