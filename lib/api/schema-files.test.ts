// The response schemas are imported by the browser for its types and by forms for validation, so
// they must stay schema-only: zod, each other, and constants with no server code behind them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SCHEMA_FILES = [
  'lib/api/schemas.ts',
  'lib/api/package-schemas.ts',
  'lib/api/skill-schemas.ts',
  'lib/http/action-error.ts',
  'db/schema/job-states.ts',
  'lib/sandbox/config/schema.ts',
  'lib/sandbox/config/image-ref.ts',
  'lib/sandbox/env/rules.ts',
  'lib/terminal/schema.ts',
  'lib/settings/terminal-settings.ts',
  'lib/settings/skills-settings.ts',
  'lib/settings/import-policy.ts',
  'lib/settings/patch.ts',
  'lib/gateways/schema.ts',
  'lib/api/gateway-schemas.ts',
  'lib/sandbox/artifacts/schema.ts',
];
const ALLOWED = new Set([
  'zod',
  '@/db/schema/job-states',
  '../auth/permissions',
  './schemas',
  './image-ref',
  '../../network/policy/schema',
  './patch',
  './import-policy',
  '../settings/skills-settings',
  '../env/rules',
]);
/** The network policy code runs in the browser too (validation as you type): zod, ipaddr.js and its own folder only. */
const POLICY_DIR = 'lib/network/policy';
const POLICY_FILES = fs
  .readdirSync(POLICY_DIR)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => `${POLICY_DIR}/${f}`);

const importsOf = (file: string) =>
  [...fs.readFileSync(path.resolve(file), 'utf8').matchAll(/^import\s+(?:type\s+)?[^'"]*?from\s+'([^']+)'/gm)].map((m) => m[1]);

describe('schema-only files', () => {
  for (const file of SCHEMA_FILES) {
    it(`${file} imports nothing with server code`, () => {
      expect(importsOf(file).filter((i) => !ALLOWED.has(i))).toEqual([]);
    });
  }

  for (const file of POLICY_FILES) {
    it(`${file} imports only zod, ipaddr.js and its own folder`, () => {
      expect(importsOf(file).filter((i) => i !== 'zod' && i !== 'ipaddr.js' && !/^\.\/[a-z0-9-]+$/.test(i))).toEqual([]);
    });
  }

  it('operations and the doors are marked server-only', () => {
    const dir = 'lib/api/operations';
    const files = [
      ...fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.ts') && !f.includes('.test.'))
        .map((f) => `${dir}/${f}`),
      'lib/http/route.ts',
      'lib/http/action.ts',
      'lib/http/invoke.ts',
      'lib/http/handler.ts',
      'lib/services.ts',
      'db/client.ts',
    ];
    for (const f of files) expect(fs.readFileSync(f, 'utf8').startsWith("import 'server-only';"), f).toBe(true);
  });
});
