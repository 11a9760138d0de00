// Calling the exec policy routes the way a client does: a bearer token, JSON bodies, path params.
import { GET as agentApprovalRoute } from '@/app/api/v1/agents/[id]/exec/[approvalId]/route';
import { POST as execRoute } from '@/app/api/v1/agents/[id]/exec/route';
import { GET as execLogRoute } from '@/app/api/v1/agents/[id]/exec-log/route';
import { GET as agentPolicyRoute } from '@/app/api/v1/agents/[id]/exec-policy/route';
import { POST as approveRoute } from '@/app/api/v1/exec-approvals/[id]/approve/route';
import { POST as rejectRoute } from '@/app/api/v1/exec-approvals/[id]/reject/route';
import { GET as approvalRoute } from '@/app/api/v1/exec-approvals/[id]/route';
import { GET as approvalsRoute } from '@/app/api/v1/exec-approvals/route';
import { GET as denyGroupsRoute } from '@/app/api/v1/exec-policy/deny-groups/route';
import { POST as evaluateRoute } from '@/app/api/v1/exec-policy/evaluate/route';
import { DELETE as profileDelete, GET as profileGet, PATCH as profilePatch } from '@/app/api/v1/exec-policy/profiles/[name]/route';
import { POST as profileCreate, GET as profileList } from '@/app/api/v1/exec-policy/profiles/route';
import { POST as replayRoute } from '@/app/api/v1/exec-policy/replay/route';
import { GET as settingsGet, PUT as settingsPut } from '@/app/api/v1/exec-policy/settings/route';

// Response bodies are checked field by field by the tests.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
type Handler = (req: Request, args?: { params?: Promise<Record<string, string>> }) => Promise<Response>;
export interface Reply {
  status: number;
  body: Json;
}

export function policyClient(token: string) {
  async function send(handler: Handler, method: string, url: string, o: { body?: unknown; params?: Record<string, string> } = {}): Promise<Reply> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const res = await handler(
      new Request(`http://localhost${url}`, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) }),
      o.params ? { params: Promise.resolve(o.params) } : undefined,
    );
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
  const enc = encodeURIComponent;
  return {
    send,
    profiles: () => send(profileList, 'GET', '/api/v1/exec-policy/profiles'),
    create: (body: unknown) => send(profileCreate, 'POST', '/api/v1/exec-policy/profiles', { body }),
    get: (name: string) => send(profileGet, 'GET', `/api/v1/exec-policy/profiles/${enc(name)}`, { params: { name } }),
    patch: (name: string, body: unknown) => send(profilePatch, 'PATCH', `/api/v1/exec-policy/profiles/${enc(name)}`, { params: { name }, body }),
    remove: (name: string) => send(profileDelete, 'DELETE', `/api/v1/exec-policy/profiles/${enc(name)}`, { params: { name } }),
    denyGroups: () => send(denyGroupsRoute, 'GET', '/api/v1/exec-policy/deny-groups'),
    evaluate: (body: unknown) => send(evaluateRoute, 'POST', '/api/v1/exec-policy/evaluate', { body }),
    replay: (body: unknown) => send(replayRoute, 'POST', '/api/v1/exec-policy/replay', { body }),
    settings: () => send(settingsGet, 'GET', '/api/v1/exec-policy/settings'),
    putSettings: (body: unknown) => send(settingsPut, 'PUT', '/api/v1/exec-policy/settings', { body }),
    approvals: (q = '') => send(approvalsRoute, 'GET', `/api/v1/exec-approvals${q}`),
    approval: (id: string) => send(approvalRoute, 'GET', `/api/v1/exec-approvals/${enc(id)}`, { params: { id } }),
    approve: (id: string, body: unknown = {}) => send(approveRoute, 'POST', `/api/v1/exec-approvals/${enc(id)}/approve`, { params: { id }, body }),
    reject: (id: string, body: unknown = {}) => send(rejectRoute, 'POST', `/api/v1/exec-approvals/${enc(id)}/reject`, { params: { id }, body }),
    agentPolicy: (id: string) => send(agentPolicyRoute, 'GET', `/api/v1/agents/${enc(id)}/exec-policy`, { params: { id } }),
    exec: (id: string, body: unknown) => send(execRoute, 'POST', `/api/v1/agents/${enc(id)}/exec`, { params: { id }, body }),
    execLog: (id: string, q = '') => send(execLogRoute, 'GET', `/api/v1/agents/${enc(id)}/exec-log${q}`, { params: { id } }),
    agentApproval: (id: string, approvalId: string) =>
      send(agentApprovalRoute, 'GET', `/api/v1/agents/${enc(id)}/exec/${enc(approvalId)}`, { params: { id, approvalId } }),
  };
}
export type PolicyClient = ReturnType<typeof policyClient>;
