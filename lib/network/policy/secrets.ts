// The secrets inside a policy (Cube's injected header secrets, E2B's header values), split out so
// the caller can seal them, masked in responses, and merged back when a form sends the mask.
import type { NetworkPolicy, PolicyIssue } from './types';

/** Shown instead of a stored secret; sent back, it keeps the stored value. */
export const SECRET_MASK = '***';

interface Slot {
  key: string;
  path: string;
  get(p: NetworkPolicy): string;
  set(p: NetworkPolicy, v: string): void;
}

/** Every secret position of a policy, keyed by rule name (Cube) or host (E2B) and header name. */
function slots(p: NetworkPolicy): Slot[] {
  const out: Slot[] = [];
  p.cubeRules.forEach((r, i) =>
    r.inject.forEach((inj, j) =>
      out.push({
        key: `cube:${r.name}:${inj.header.toLowerCase()}`,
        path: `cubeRules.${i}.inject.${j}.secret`,
        get: (q) => q.cubeRules[i].inject[j].secret,
        set: (q, v) => {
          q.cubeRules[i].inject[j].secret = v;
        },
      }),
    ),
  );
  p.e2bHostRules.forEach((r, i) => {
    for (const header of Object.keys(r.headers)) {
      out.push({
        key: `e2b:${r.host}:${header.toLowerCase()}`,
        path: `e2bHostRules.${i}.headers.${header}`,
        get: (q) => q.e2bHostRules[i].headers[header],
        set: (q, v) => {
          q.e2bHostRules[i].headers[header] = v;
        },
      });
    }
  });
  return out;
}

const copy = (p: NetworkPolicy): NetworkPolicy => ({
  ...p,
  allowOut: [...p.allowOut],
  denyOut: [...p.denyOut],
  cubeRules: p.cubeRules.map((r) => ({ ...r, methods: [...r.methods], inject: r.inject.map((inj) => ({ ...inj })) })),
  e2bHostRules: p.e2bHostRules.map((r) => ({ ...r, headers: { ...r.headers } })),
});

/** The policy with every secret replaced by "" and the secrets by key (empty ones are not secrets). */
export function splitPolicySecrets(policy: NetworkPolicy): { plain: NetworkPolicy; secrets: Record<string, string> } {
  const plain = copy(policy);
  const secrets: Record<string, string> = {};
  for (const s of slots(plain)) {
    const v = s.get(plain);
    if (v !== '') secrets[s.key] = v;
    s.set(plain, '');
  }
  return { plain, secrets };
}

/** The policy as responses show it: "***" wherever a secret is stored. */
export function maskPolicy(plain: NetworkPolicy, secretKeys: string[]): NetworkPolicy {
  const keys = new Set(secretKeys);
  const out = copy(plain);
  for (const s of slots(out)) s.set(out, keys.has(s.key) ? SECRET_MASK : '');
  return out;
}

/** Restores the stored secret wherever the incoming policy sends the mask; a mask with nothing stored is an issue. */
export function mergePolicySecrets(incoming: NetworkPolicy, stored: Record<string, string>): { policy: NetworkPolicy; issues: PolicyIssue[] } {
  const policy = copy(incoming);
  const issues: PolicyIssue[] = [];
  for (const s of slots(policy)) {
    if (s.get(policy) !== SECRET_MASK) continue;
    if (Object.hasOwn(stored, s.key)) s.set(policy, stored[s.key]);
    else issues.push({ path: s.path, message: `"***" keeps a stored secret, but none is stored here (${s.key}); enter the secret.` });
  }
  return { policy, issues };
}
