// Calls the gateway routes with a bearer token, as a gateway operator's script would.
import { POST as adoptRoute } from '@/app/api/v1/gateways/[id]/adopt/route';
import { GET as driftRoute } from '@/app/api/v1/gateways/[id]/drift/route';
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from '@/app/api/v1/gateways/[id]/route';
import { POST as syncRoute } from '@/app/api/v1/gateways/[id]/sync/route';
import { POST as testRoute } from '@/app/api/v1/gateways/[id]/test/route';
import { POST as createRoute, GET as listRoute } from '@/app/api/v1/gateways/route';

// Test replies are checked field by field.
export type Json = any;
type Handler = (req: Request, ctx?: { params: Promise<Record<string, string>> }) => Promise<Response>;

export function gatewaysClient(token: string) {
  async function send(handler: Handler, method: string, url: string, o: { body?: unknown; params?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const res = await handler(
      new Request(`http://localhost${url}`, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) }),
      o.params ? { params: Promise.resolve(o.params) } : undefined,
    );
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as Json };
  }
  const p = (id: string) => ({ params: { id } });
  return {
    list: () => send(listRoute as Handler, 'GET', '/api/v1/gateways'),
    create: (body: unknown) => send(createRoute as Handler, 'POST', '/api/v1/gateways', { body }),
    get: (id: string) => send(getRoute as Handler, 'GET', `/api/v1/gateways/${id}`, p(id)),
    patch: (id: string, body: unknown) => send(patchRoute as Handler, 'PATCH', `/api/v1/gateways/${id}`, { ...p(id), body }),
    remove: (id: string) => send(deleteRoute as Handler, 'DELETE', `/api/v1/gateways/${id}`, p(id)),
    test: (id: string) => send(testRoute as Handler, 'POST', `/api/v1/gateways/${id}/test`, p(id)),
    adoptPreview: (id: string, agentIds?: string[]) =>
      send(adoptRoute as Handler, 'POST', `/api/v1/gateways/${id}/adopt?preview=true`, { ...p(id), body: agentIds ? { agentIds } : {} }),
    adopt: (id: string, agentIds?: string[]) =>
      send(adoptRoute as Handler, 'POST', `/api/v1/gateways/${id}/adopt`, { ...p(id), body: agentIds ? { agentIds } : {} }),
    drift: (id: string) => send(driftRoute as Handler, 'GET', `/api/v1/gateways/${id}/drift`, p(id)),
    plan: (id: string) => send(syncRoute as Handler, 'POST', `/api/v1/gateways/${id}/sync?dryRun=true`, p(id)),
    sync: (id: string) => send(syncRoute as Handler, 'POST', `/api/v1/gateways/${id}/sync`, p(id)),
  };
}
export type GatewaysClient = ReturnType<typeof gatewaysClient>;
