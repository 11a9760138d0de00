// How Skilldock reaches one gateway, whatever its location: read and write its config, ask it
// which skills each agent sees, and put skill folders into its managed skills folder. A local
// state folder, a Docker container (Engine API only) and a remote gateway (its WebSocket RPC)
// each implement this once; planning, sync and drift never know which one they talk to.

/** The config as the gateway holds it: the raw JSON5 text (when readable), the parsed value and its content hash. */
export interface GatewayConfigRead {
  /** Where the gateway keeps it (a path on the gateway's machine), for messages. */
  path: string;
  /** The file's text; null when the location only gives the parsed value (remote RPC). */
  raw: string | null;
  /** The parsed config (JSON5). */
  value: Record<string, unknown>;
  /** The gateway's own hash (RPC) or sha256 of the raw text: a write names it and is refused when it moved. */
  hash: string;
  /** False when the gateway forbids config writes (OPENCLAW_CONFIG_READONLY=1). */
  writable: boolean;
}

/** One skill as the gateway reports it for one agent (`openclaw skills list --agent <id> --json` / `skills.status`). */
export interface GatewaySkillStatus {
  name: string;
  source: string;
  eligible: boolean;
  disabled: boolean;
  blockedByAllowlist: boolean;
  blockedByAgentFilter: boolean;
  modelVisible: boolean;
  missing: { bins: string[]; anyBins: string[]; env: string[]; config: string[]; os: string[] };
}

export interface GatewayAgentSkills {
  agentId: string;
  workspaceDir: string | null;
  managedSkillsDir: string | null;
  skills: GatewaySkillStatus[];
}

/** A skill folder to put into the gateway's managed skills folder: relative file paths and their bytes. */
export interface SkillFolder {
  name: string;
  /** sha256 over the folder's files (paths and bytes), written into the marker: equal digests mean nothing to do. */
  digest: string;
  files: { path: string; mode: number; data: Buffer }[];
}

/** What a marker file in a managed skill folder says: Skilldock wrote it, from which content. */
export interface FolderMarker {
  name: string;
  digest: string;
}

/** The secrets file on the gateway: the path its SecretRefs name, its text, and a whole-file write (mode 0600). */
export interface SecretsFile {
  path: string;
  /** The text; null when absent or not a private file of the gateway's user (the next sync writes it again). */
  read(): Promise<string | null>;
  write(text: string): Promise<void>;
}

/**
 * The gateway's own secret store (OpenClaw's shared store, reached through its RPC): write-only,
 * values are never read back. apiKey SecretRefs name its entries.
 */
export interface GatewaySecretStore {
  set(name: string, value: string): Promise<void>;
  remove(name: string): Promise<void>;
}

export interface ConfigPatchResult {
  /** The config's hash after the write. */
  hash: string;
}

export class ConfigChangedError extends Error {
  constructor(readonly expected: string) {
    super('The gateway config changed after it was read');
  }
}

export interface GatewayAccess {
  /**
   * False when this location cannot place skill folders in the managed folder (a remote gateway's
   * RPC): a sync then writes the config alone and says so.
   */
  readonly placesSkills?: boolean;
  /** The gateway's version (e.g. "2026.9.6"). */
  version(): Promise<string>;
  readConfig(): Promise<GatewayConfigRead>;
  /**
   * Apply a JSON merge patch (objects merge, arrays and scalars replace, null deletes) as one write,
   * refused with ConfigChangedError when the config's hash is no longer `baseHash`.
   * `replacePaths` names the arrays the patch shortens or deletes (the RPC requires them).
   */
  patchConfig(patch: Record<string, unknown>, baseHash: string, replacePaths: string[]): Promise<ConfigPatchResult>;
  /** Each agent's skills as the gateway itself sees them, in as few gateway calls as it allows. */
  agentSkills(agentIds: string[]): Promise<GatewayAgentSkills[]>;
  /** The managed skills folder's folders that carry a Skilldock marker (name → marker), and the names of those that do not. */
  managedFolders(): Promise<{ ours: Map<string, FolderMarker>; foreign: Set<string> }>;
  /** Put one skill folder in place of the old one atomically (old or new, never a mix), with its marker. */
  putSkill(folder: SkillFolder): Promise<void>;
  /** Remove a folder Skilldock wrote (refused when it has no Skilldock marker). */
  removeSkill(name: string): Promise<void>;
  /**
   * The file apiKey SecretRefs point at, when this location can hold one (written with mode 0600).
   * Absent: apiKeys are not delivered (the plan says so).
   */
  secretsFile?(stateDir: string): SecretsFile | null;
  /** The gateway's secret store, where a location has no secrets file but the gateway keeps secrets itself. */
  readonly secretStore?: GatewaySecretStore;
  close(): Promise<void>;
}

/** The marker file Skilldock writes into every skill folder it puts into a gateway. */
export const MARKER_FILE = '.skilldock.json';
