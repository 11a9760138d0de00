// Calling the agents and gateway routes the way a client does: a bearer token, JSON bodies, path
// params, and the response headers (the gateway's ETag) kept.
import { DELETE as envDelete, GET as envGet, PUT as envPut } from '@/app/api/v1/agents/[id]/env/route';
import { GET as explainRoute } from '@/app/api/v1/agents/[id]/explain/route';
import { DELETE as agentDelete, GET as agentGet, PATCH as agentPatch } from '@/app/api/v1/agents/[id]/route';
import { GET as fileRoute } from '@/app/api/v1/agents/[id]/skills/[name]/files/route';
import { GET as skillRoute } from '@/app/api/v1/agents/[id]/skills/[name]/route';
import { GET as skillsRoute } from '@/app/api/v1/agents/[id]/skills/route';
import { POST as previewRoute } from '@/app/api/v1/agents/allowlists/preview/route';
import { PUT as saveRoute } from '@/app/api/v1/agents/allowlists/route';
import { GET as defaultsGet, PUT as defaultsPut } from '@/app/api/v1/agents/defaults/route';
import { POST as createRoute, GET as listRoute } from '@/app/api/v1/agents/route';

// Response bodies are checked field by field by the tests.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
type Handler = (req: Request, args?: { params?: Promise<Record<string, string>> }) => Promise<Response>;
export interface AgentReply {
  status: number;
  body: Json;
  headers: Headers;
}

export function agentsClient(token: string) {
  async function send(
    handler: Handler,
    method: string,
    url: string,
    o: { body?: unknown; params?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<AgentReply> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...o.headers };
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const res = await handler(
      new Request(`http://localhost${url}`, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) }),
      o.params ? { params: Promise.resolve(o.params) } : undefined,
    );
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  }
  const enc = encodeURIComponent;
  const c = {
    send,
    list: () => send(listRoute, 'GET', '/api/v1/agents'),
    create: (body: unknown) => send(createRoute, 'POST', '/api/v1/agents', { body }),
    get: (id: string) => send(agentGet, 'GET', `/api/v1/agents/${enc(id)}`, { params: { id } }),
    patch: (id: string, body: unknown) => send(agentPatch, 'PATCH', `/api/v1/agents/${enc(id)}`, { params: { id }, body }),
    remove: (id: string) => send(agentDelete, 'DELETE', `/api/v1/agents/${enc(id)}`, { params: { id } }),
    defaults: () => send(defaultsGet, 'GET', '/api/v1/agents/defaults'),
    putDefaults: (body: unknown) => send(defaultsPut, 'PUT', '/api/v1/agents/defaults', { body }),
    /** PUT the defaults list from whatever revision is stored now. */
    async setDefaults(skills: string[] | null, extra: Record<string, unknown> = {}): Promise<AgentReply> {
      const now = await c.defaults();
      return c.putDefaults({ revision: now.body.revision, skills, ...extra });
    },
    preview: (changes: unknown[]) => send(previewRoute, 'POST', '/api/v1/agents/allowlists/preview', { body: { changes } }),
    save: (changes: unknown[]) => send(saveRoute, 'PUT', '/api/v1/agents/allowlists', { body: { changes } }),
    skills: (id: string, ifNoneMatch?: string) =>
      send(skillsRoute, 'GET', `/api/v1/agents/${enc(id)}/skills`, { params: { id }, headers: ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {} }),
    /** The names of the agent's effective skills (fails on anything but 200). */
    async names(id: string): Promise<string[]> {
      const r = await c.skills(id);
      if (r.status !== 200) throw new Error(`GET skills of ${id} answered ${r.status}: ${JSON.stringify(r.body)}`);
      return r.body.skills.map((s: { name: string }) => s.name);
    },
    skill: (id: string, name: string) => send(skillRoute, 'GET', `/api/v1/agents/${enc(id)}/skills/${enc(name)}`, { params: { id, name } }),
    file: (id: string, name: string, path: string) =>
      send(fileRoute, 'GET', `/api/v1/agents/${enc(id)}/skills/${enc(name)}/files?path=${enc(path)}`, { params: { id, name } }),
    env: (id: string) => send(envGet, 'GET', `/api/v1/agents/${enc(id)}/env`, { params: { id } }),
    setEnv: (id: string, body: unknown) => send(envPut, 'PUT', `/api/v1/agents/${enc(id)}/env`, { params: { id }, body }),
    unsetEnv: (id: string, body: unknown) => send(envDelete, 'DELETE', `/api/v1/agents/${enc(id)}/env`, { params: { id }, body }),
    explain: (id: string, skill?: string) =>
      send(explainRoute, 'GET', `/api/v1/agents/${enc(id)}/explain${skill ? `?skill=${enc(skill)}` : ''}`, { params: { id } }),
  };
  return c;
}
export type AgentsClient = ReturnType<typeof agentsClient>;
