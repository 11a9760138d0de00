import type { z } from 'zod';
import { AppError, type FieldIssue } from '../core/errors';
import type { RouteRequest } from './route-request';

export function zodIssues(error: z.ZodError, prefix: string[] = []): FieldIssue[] {
  return error.issues.map((i) => ({
    path: [...prefix, ...i.path.map(String)].join('.') || '(root)',
    message: i.code === 'unrecognized_keys' ? `Unknown field(s): ${i.keys.join(', ')}` : i.message,
  }));
}

export function parseWith<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues = zodIssues(r.error);
  throw new AppError('validation', `Invalid ${where}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
}

/** Reads a request body up to `maxBytes` (a declared larger length is refused before any byte is read). */
export async function readBodyCapped(req: Pick<RouteRequest, 'headers' | 'body'>, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new AppError('payload_too_large', `The request body is ${declared} bytes; the limit is ${maxBytes}.`);
  }
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AppError('payload_too_large', `The request body exceeds the limit of ${maxBytes} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a JSON body with a byte cap, refusing non-JSON media types and malformed JSON. An empty body
 * (fetch sends an empty stream for a bodiless POST/DELETE) reads as {} whatever its content type.
 */
export async function readJsonBody(req: Pick<RouteRequest, 'headers' | 'body'>, maxBytes: number): Promise<unknown> {
  const type = (req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const text = (await readBodyCapped(req, maxBytes)).toString('utf8');
  if (!text.trim()) return {};
  if (type !== 'application/json') throw new AppError('unsupported_media_type', `Send the body as application/json (got "${type || 'none'}").`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError('invalid_json', `The body is not valid JSON: ${(e as Error).message}`);
  }
}

/** Turns search params into an object; a key given several times becomes an array. */
export function queryObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}
