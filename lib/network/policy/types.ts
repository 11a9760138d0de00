// The network policy of a sandbox config, as stored and as enforced. Types only: the browser, the
// validator, the Docker enforcement (nft, proxy, DNS) and the E2B/Cube mapping all share these.

export type CubeAudit = '' | 'none' | 'metadata' | 'full';

/** A header Cube adds to requests a rule matches; `secret` is sealed at rest and "***" in responses. */
export interface CubeInject {
  header: string;
  secret: string;
  format: string;
}

/** An L7 rule of CubeSandbox; order matters, the first match wins. */
export interface CubeRule {
  name: string;
  scheme: '' | 'http' | 'https';
  sni: string;
  host: string;
  methods: string[];
  path: string;
  deny: boolean;
  audit: CubeAudit;
  inject: CubeInject[];
}

/** Headers E2B adds to egress HTTP(S) for one allowed host; values are secrets. */
export interface E2bHostRule {
  host: string;
  headers: Record<string, string>;
}

/** The policy as the API takes and returns it (normalised once validated). */
export interface NetworkPolicy {
  denyEgressByDefault: boolean;
  /** IP (as /32 or /128), CIDR (network form) or domain (`*.` = subdomains only). */
  allowOut: string[];
  /** IP or CIDR only. */
  denyOut: string[];
  cubeRules: CubeRule[];
  e2bHostRules: E2bHostRule[];
}

export const OPEN_POLICY: NetworkPolicy = { denyEgressByDefault: false, allowOut: [], denyOut: [], cubeRules: [], e2bHostRules: [] };

/** The policy split by family and kind, ready for a firewall, a proxy or a DNS forwarder. */
export interface CompiledPolicy {
  denyEgressByDefault: boolean;
  allow4: string[];
  allow6: string[];
  deny4: string[];
  deny6: string[];
  /** Exact names from allowOut, lower-case, no trailing dot. */
  domains: string[];
  /** Suffixes of `*.x.y` entries, as `x.y` (subdomains only). */
  wildcards: string[];
}

/** Who enforces a config's policy. */
export type EnforcedBy = 'host-firewall+proxy' | 'proxy-only' | 'e2b' | 'cube' | 'none';

/** Which step of the evaluation decided. */
export type RuleKind =
  | 'always-blocked'
  | 'host'
  | 'other-network'
  | 'allow-out'
  | 'allow-domain'
  | 'private'
  | 'deny-out'
  | 'dns'
  | 'domain-port'
  | 'unresolved'
  | 'default-allow'
  | 'default-deny';

export interface Decision {
  allowed: boolean;
  kind: RuleKind;
  /** The entry that decided (e.g. "10.0.0.0/8", "*.pypi.org"), when one did. */
  entry?: string;
  /** One sentence a person reads: which rule decided and why. */
  rule: string;
}

export interface PolicyIssue {
  path: string;
  message: string;
}
