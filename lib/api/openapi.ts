import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { minimumRole } from '../auth/permissions';
import { ERROR_STATUS } from '../core/errors';
import type { RouteContract } from '../http/contract';
import { api } from './contracts';
import { errorBody } from './schemas';

/** OpenAPI 3.1 built from the same contracts (and zod schemas) the wrapper enforces. */
export function buildOpenApi(version: string) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', description: 'API token created in Settings → API tokens' });
  registry.registerComponent('securitySchemes', 'session', { type: 'apiKey', in: 'cookie', name: 'next-auth.session-token' });
  const errorContent = { 'application/json': { schema: errorBody } };
  for (const [name, c] of Object.entries(api) as [string, RouteContract][]) {
    const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }> }> = {};
    const status = String(c.status ?? 200);
    responses[status] =
      c.produces === 'text/event-stream'
        ? { description: 'Event stream', content: { 'text/event-stream': { schema: z.string() } } }
        : c.status === 204
          ? { description: 'Done' }
          : { description: 'Success', content: { 'application/json': { schema: c.response ?? z.unknown() } } };
    const codes = new Set<number>([400]);
    if (c.permission) [401, 403].forEach((x) => codes.add(x));
    if (c.params) codes.add(404);
    if (c.body || c.consumes) [413, 415].forEach((x) => codes.add(x));
    if (c.rateLimit) codes.add(429);
    for (const code of codes) {
      const names = Object.entries(ERROR_STATUS)
        .filter(([, s]) => s === code)
        .map(([k]) => k);
      responses[String(code)] = { description: `Error: ${names.join(', ')}`, content: errorContent };
    }
    registry.registerPath({
      operationId: name,
      method: c.method.toLowerCase() as 'get',
      path: c.path,
      summary: c.summary,
      description: c.permission
        ? `${c.description ?? ''}\n\nPermission: \`${c.permission}\` (role ${minimumRole(c.permission)} or above).`.trim()
        : c.description,
      tags: [c.tag],
      security: c.permission ? [{ bearer: [] }, { session: [] }] : [],
      request: {
        ...(c.params ? { params: c.params as z.ZodObject } : {}),
        ...(c.query ? { query: c.query as z.ZodObject } : {}),
        ...(c.body ? { body: { required: true, content: { 'application/json': { schema: c.body } } } } : {}),
        ...(c.consumes ? { body: { required: true, content: { [c.consumes]: { schema: z.string().meta({ format: 'binary' }) } } } } : {}),
      },
      responses,
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Skilldock API',
      version,
      description: 'Control plane for the skills runtime of AI-agent gateways. Long work answers 202 with a job; follow it at /api/v1/jobs/{id}/events.',
    },
  });
}
