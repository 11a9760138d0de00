// How the loopback E2B server reads egress settings: the create body's `allow_internet_access` and
// `network`, and the flat body of `PUT /sandboxes/{id}/network`. Malformed shapes are refused with
// 400 as the API's schema would; each accepted one is recorded for assertions.

export interface NetworkRecord {
  route: 'create' | 'update';
  sandboxId: string;
  /** `allow_internet_access` as sent (absent: undefined). */
  allowInternetAccess?: boolean;
  /** The `network` object of a create, or the update body without `allow_internet_access`. */
  network?: Record<string, unknown>;
}

const isStrings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function rulesProblem(rules: unknown): string | undefined {
  if (!isObject(rules)) return 'network.rules must be an object';
  for (const [host, list] of Object.entries(rules)) {
    if (!Array.isArray(list)) return `network.rules.${host} must be an array`;
    for (const r of list) {
      if (!isObject(r)) return `network.rules.${host}[] must be an object`;
      if (r.transform === undefined) continue;
      if (!isObject(r.transform)) return `network.rules.${host}[].transform must be an object`;
      const h = r.transform.headers;
      if (h !== undefined && !(isObject(h) && Object.values(h).every((x) => typeof x === 'string')))
        return `network.rules.${host}[].transform.headers must map names to strings`;
    }
  }
  return undefined;
}

/** The problem with one egress body, or undefined when it is well-formed. */
export function networkProblem(allowInternetAccess: unknown, network: unknown): string | undefined {
  if (allowInternetAccess !== undefined && typeof allowInternetAccess !== 'boolean') return 'allow_internet_access must be a boolean';
  if (network === undefined) return undefined;
  if (!isObject(network)) return 'network must be an object';
  for (const k of ['allowOut', 'denyOut'] as const) if (network[k] !== undefined && !isStrings(network[k])) return `network.${k} must be an array of strings`;
  if (network.rules !== undefined) return rulesProblem(network.rules);
  return undefined;
}

export function createRecord(sandboxId: string, body: Record<string, unknown>): NetworkRecord {
  return {
    route: 'create',
    sandboxId,
    allowInternetAccess: body.allow_internet_access as boolean | undefined,
    network: body.network as Record<string, unknown> | undefined,
  };
}

export function updateRecord(sandboxId: string, body: Record<string, unknown>): NetworkRecord {
  const { allow_internet_access, ...network } = body;
  return { route: 'update', sandboxId, allowInternetAccess: allow_internet_access as boolean | undefined, network };
}
