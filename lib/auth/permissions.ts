export const ROLES = ['owner', 'admin', 'operator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Every named permission, with what it allows; routes, actions and sockets name one of these. */
export const PERMISSIONS = {
  'instance.read': 'See instance information and the console',
  'jobs.read': 'List jobs and follow their logs',
  'jobs.run': 'Start jobs of configured kinds (diagnostics, self-tests)',
  'jobs.cancel': 'Cancel and retry jobs',
  'audit.read': 'Read the audit log',
  'users.read': 'List users',
  'users.manage': 'Create users, change roles, disable, reset passwords',
  'tokens.manage': 'Create and revoke your own API tokens',
  'packages.read': 'See runtimes, installed packages and pending updates',
  'packages.write': 'Install, update and uninstall packages; run Update All',
  'skills.read': 'See the skill catalog, its files, findings, versions and config entries (secrets masked)',
  'skills.write': 'Import, update, roll back and remove skills; edit skill config entries; acknowledge scanner findings',
  'sandboxes.read': 'See sandbox configs (secrets masked), their last check, what uses them and which env vars are set',
  'sandboxes.write': 'Create, change, clone and delete sandbox configs; set config and workspace skill env vars',
  'sandboxes.env.own': 'Set and remove your own sandbox and skill variables',
  'sandboxes.run': 'Start and remove sandboxes from enabled configs; move files in and out of them',
  'sandboxes.exec': 'Run commands as root in a running sandbox: the exec box and terminals',
  'terminals.manage': 'See and close every open terminal session; change terminal settings; download transcripts',
  'agents.read': 'See agents, their allowlists, effective skills, prompt catalog and explain traces',
  'agents.write': 'Create, change and delete agents; edit allowlists and the agent defaults',
  'agents.exec':
    "Run commands as an agent through the gateway's exec (decided by the agent's exec policy); only with an API token scoped to that agent, which only holders of agents.write can mint",
  'policy.commands': 'Read the commands in exec logs (others see decisions and outcomes with the command hidden)',
  'policy.read': 'See exec risk profiles, deny groups, approval requests; test and replay commands',
  'policy.write': 'Create, change and delete exec risk profiles; change exec settings',
  'policy.approve': 'Approve or reject pending exec approval requests',
  'gateways.read': 'See connected agent gateways, their agents, drift and sync history',
  'gateways.write': 'Connect, change and remove gateways; adopt their agents; sync Skilldock into them',
} as const;

export type Permission = keyof typeof PERMISSIONS;
/** What a token scoped to agents may carry: their gateway reads and the gateway's exec (it stands for the agent). */
export const AGENT_SCOPED_PERMISSIONS: readonly Permission[] = ['agents.read', 'agents.exec'];
export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];

const VIEWER: Permission[] = [
  'instance.read',
  'jobs.read',
  'tokens.manage',
  'packages.read',
  'skills.read',
  'sandboxes.read',
  'agents.read',
  'policy.read',
  'gateways.read',
];
const OPERATOR: Permission[] = [...VIEWER, 'jobs.run', 'jobs.cancel', 'sandboxes.env.own', 'sandboxes.run', 'policy.commands'];
const ADMIN: Permission[] = [
  ...OPERATOR,
  'audit.read',
  'users.read',
  'packages.write',
  'skills.write',
  'sandboxes.write',
  'sandboxes.exec',
  'terminals.manage',
  'agents.write',
  'agents.exec',
  'policy.write',
  'policy.approve',
  'gateways.write',
];
const OWNER: Permission[] = [...ADMIN, 'users.manage'];

// process-wide: a constant table, never written
export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  viewer: new Set(VIEWER),
  operator: new Set(OPERATOR),
  admin: new Set(ADMIN),
  owner: new Set(OWNER),
};

/** The lowest role that holds a permission, for "needs the admin role" messages and tooltips. */
export function minimumRole(permission: Permission): Role {
  for (const r of [...ROLES].reverse()) if (ROLE_PERMISSIONS[r].has(permission)) return r;
  return 'owner';
}

export function isPermission(p: string): p is Permission {
  return Object.hasOwn(PERMISSIONS, p);
}
