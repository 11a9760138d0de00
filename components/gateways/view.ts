/**
 * The gateways API's shapes, taken from the contracts' schemas (type-only: nothing of the server is
 * bundled), and the small formatting helpers of the gateways pages.
 */
import type { z } from 'zod';
import type {
  adoptOut,
  adoptPreviewOut,
  driftOut,
  folderClientListOut,
  folderClientOut,
  gatewayListOut,
  gatewayOut,
  gatewayStatusOut,
  syncPlanOut,
} from '@/lib/api/gateway-schemas';

export type GatewayList = z.output<typeof gatewayListOut>;
export type Gateway = z.output<typeof gatewayOut>;
export type GatewayStatus = NonNullable<z.output<typeof gatewayStatusOut>>;
export type Drift = z.output<typeof driftOut>;
export type DriftAgent = Drift['agents'][number];
export type AdoptPreview = z.output<typeof adoptPreviewOut>;
export type AdoptResult = z.output<typeof adoptOut>;
export type SyncPlan = z.output<typeof syncPlanOut>;

export type StatusKey = 'reachable' | 'unreachable' | 'invalid' | 'read-only' | 'unchecked';

export const STATUS_LABELS: Record<StatusKey, string> = {
  reachable: 'reachable',
  unreachable: 'unreachable',
  invalid: 'config invalid',
  'read-only': 'read-only',
  unchecked: 'not tested',
};

/** One word for a gateway's last connection test: unreachable beats an invalid config beats read-only. */
export function statusKey(s: Gateway['status']): StatusKey {
  if (!s) return 'unchecked';
  if (!s.reachable) return 'unreachable';
  if (s.configValid === false) return 'invalid';
  if (s.readOnly) return 'read-only';
  return 'reachable';
}

export const LOCATION_LABELS = { local: 'Local state folder', docker: 'Docker container', remote: 'Remote gateway' } as const;
export type LocationType = keyof typeof LOCATION_LABELS;

/** Where a gateway lives, in one line: its state folder, container or URL. */
export function locationText(loc: Gateway['location']): string {
  const s = (k: string) => (typeof loc[k] === 'string' ? (loc[k] as string) : '');
  if (loc.type === 'local') return s('stateDir');
  if (loc.type === 'docker') return `${s('container')}:${s('stateDir')}${s('host') ? ` on ${s('host')}` : ''}`;
  return s('url');
}

export const locationType = (loc: Gateway['location']): LocationType => (loc.type === 'docker' || loc.type === 'remote' ? loc.type : 'local');

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The `skilldock sync` command an AgentSkills client runs to keep a folder in step with one agent. */
export function syncCommand(origin: string, agentId: string, token: string, dir = '<folder>'): string {
  return `skilldock sync --url ${origin} --agent ${agentId} --token ${token || '<agent token>'} --dir ${dir}`;
}

export type FolderClient = z.output<typeof folderClientOut>;
export type FolderClientList = z.output<typeof folderClientListOut>;

export const FOLDER_STATUS: Record<FolderClient['status'], { label: string; variant: 'success' | 'warning' | 'destructive' | 'secondary' }> = {
  'in-step': { label: 'in step', variant: 'success' },
  behind: { label: 'behind', variant: 'warning' },
  blocked: { label: 'blocked', variant: 'destructive' },
  silent: { label: 'silent', variant: 'secondary' },
};

export const FOLDER_MODES: Record<FolderClient['mode'], string> = {
  events: 'event stream',
  polling: 'polling',
  once: '--once',
  check: '--check',
};
