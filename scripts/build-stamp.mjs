// A fingerprint of everything a production build depends on, so `npm start` rebuilds only when needed.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const INPUTS = [
  'app',
  'components',
  'lib',
  'db',
  'drizzle',
  'public',
  'server.ts',
  'next.config.ts',
  'package-lock.json',
  'postcss.config.mjs',
  'tsconfig.json',
];

function walk(p, out) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return;
  }
  if (st.isDirectory()) {
    for (const e of fs.readdirSync(p).sort()) if (!e.endsWith('.test.ts')) walk(path.join(p, e), out);
  } else out.push(`${p}:${st.size}:${Math.floor(st.mtimeMs)}`);
}

export function buildStamp(root) {
  const files = [];
  for (const i of INPUTS) walk(path.join(root, i), files);
  return createHash('sha256')
    .update(files.map((f) => path.relative(root, f.split(':')[0]) + f.slice(f.indexOf(':'))).join('\n'))
    .digest('hex');
}
