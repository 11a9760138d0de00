// The zod shape of a network policy as the API, the server action and the console's form take it.
// Structure only: the rules about each entry (normalisation, ranges, duplicates, per-backend
// support) are in validate.ts, which the browser runs too, so every door reports the same issues.
import { z } from 'zod';

const entry = z.string().max(300, 'An entry is at most 300 characters.');
const list = (what: string) => z.array(entry).max(256, `At most 256 ${what} entries.`).default([]);

export const cubeInjectSchema = z.strictObject({
  header: z.string().max(64, 'A header name is at most 64 characters.'),
  secret: z.string().max(2048, 'A secret is at most 2048 characters.').default('').describe('Secret: returned as "***"; "***" keeps the stored value'),
  format: z.string().max(256, 'A format is at most 256 characters.').default(''),
});

export const cubeRuleSchema = z.strictObject({
  name: z.string().max(64, 'A rule name is at most 64 characters.'),
  scheme: z.string().max(8).default(''),
  sni: z.string().max(253).default(''),
  host: z.string().max(260).default(''),
  methods: z.array(z.string().max(16)).max(9).default([]),
  path: z.string().max(1024, 'A path is at most 1024 characters.').default(''),
  deny: z.boolean().default(false),
  audit: z.string().max(16).default(''),
  inject: z.array(cubeInjectSchema).max(20, 'At most 20 injected headers per rule.').default([]),
});

export const e2bHostRuleSchema = z.strictObject({
  host: z.string().max(300),
  headers: z.record(z.string().max(300), z.string().max(4096)).default({}).describe('Header name → value; values are secrets, returned as "***"'),
});

export const networkPolicySchema = z.strictObject({
  denyEgressByDefault: z.boolean().default(false).describe('Refuse every destination no allow entry names'),
  allowOut: list('allowOut').describe('IP, CIDR or domain (*.example.com = subdomains only)'),
  denyOut: list('denyOut').describe('IP or CIDR'),
  cubeRules: z.array(cubeRuleSchema).max(64, 'At most 64 Cube rules.').default([]).describe('CubeSandbox L7 rules, first match wins'),
  e2bHostRules: z.array(e2bHostRuleSchema).max(50).default([]).describe('E2B header injection per allowed host'),
});
export type NetworkPolicyInput = z.input<typeof networkPolicySchema>;
