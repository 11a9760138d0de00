// Calling the skill catalog's routes the way a client does (bearer token, JSON or raw bytes, path
// params), following import jobs to their end, and writing skill folders on disk.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { PUT as settingsPut } from '@/app/api/v1/settings/skills/route';
import { GET as detailRoute } from '@/app/api/v1/skills/[id]/route';
import { POST as importRoute } from '@/app/api/v1/skills/import/route';
import { GET as listRoute } from '@/app/api/v1/skills/route';
import { POST as uploadRoute } from '@/app/api/v1/skills/uploads/route';
import type { JobRow } from '@/lib/jobs';
import type { Services } from '@/lib/services';
import type { SkillSummary } from '@/lib/skills/service';
import { jobEnd } from './api';
import { sha256 } from './skills-archives';

// Response bodies are checked field by field by the tests.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
type Handler = (req: Request, args?: { params?: Promise<Record<string, string>> }) => Promise<Response>;
export interface Reply {
  status: number;
  body: Json;
}

export interface SendOptions {
  body?: unknown;
  raw?: Buffer;
  headers?: Record<string, string>;
  params?: Record<string, string>;
}

export interface SkillList {
  version: number;
  counts: Record<string, number>;
  roots: { kind: string; path: string; precedence: number; skills: number }[];
  skills: (SkillSummary & { score: number | null; terms: string[] })[];
}

/** A client of the catalog routes acting with `token`. */
export function skillsClient(services: Services, token: string) {
  async function send(handler: Handler, method: 'GET' | 'POST' | 'PUT', url: string, o: SendOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...o.headers };
    let body: BodyInit | undefined;
    if (o.raw) {
      headers['content-type'] ??= 'application/octet-stream';
      body = new Uint8Array(o.raw);
    } else if (o.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.body);
    }
    const res = await handler(
      new Request(`http://localhost${url}`, { method, headers, body, ...(body ? { duplex: 'half' } : {}) } as RequestInit),
      o.params ? { params: Promise.resolve(o.params) } : undefined,
    );
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  const client = {
    send,
    get: (handler: Handler, url: string, params?: Record<string, string>) => send(handler, 'GET', url, { params }),
    post: (handler: Handler, url: string, body?: unknown) => send(handler, 'POST', url, { body }),
    put: (handler: Handler, url: string, body?: unknown) => send(handler, 'PUT', url, { body }),

    async list(query = ''): Promise<SkillList> {
      const r = await send(listRoute, 'GET', `/api/v1/skills${query}`);
      if (r.status !== 200) throw new Error(`GET /api/v1/skills${query} answered ${r.status}: ${JSON.stringify(r.body)}`);
      return r.body as SkillList;
    },
    /** The listed skill of this name, or undefined. */
    async skill(name: string): Promise<SkillSummary | undefined> {
      return (await client.list()).skills.find((s) => s.name === name);
    },
    detail: (id: string) => send(detailRoute, 'GET', `/api/v1/skills/${id}`, { params: { id } }),

    async settings(patch: Record<string, unknown>): Promise<Reply> {
      return send(settingsPut, 'PUT', '/api/v1/settings/skills', { body: patch });
    },

    /** POST /skills/uploads with the archive's sha256 declared (or the one given). */
    upload: (archive: Buffer, declaredSha256: string | null = sha256(archive), filename = 'skill.zip') =>
      send(uploadRoute, 'POST', '/api/v1/skills/uploads', {
        raw: archive,
        headers: { 'x-filename': filename, ...(declaredSha256 ? { 'x-content-sha256': declaredSha256 } : {}) },
      }),

    startImport: (body: unknown) => send(importRoute, 'POST', '/api/v1/skills/import', { body }),

    /** Queues an import and returns the job once it ended. */
    async importJob(body: unknown): Promise<JobRow> {
      const r = await client.startImport(body);
      if (r.status !== 202) throw new Error(`POST /api/v1/skills/import answered ${r.status}: ${JSON.stringify(r.body)}`);
      return jobEnd(services, (r.body as JobRow).id, 120_000);
    },

    /** Uploads `archive` then imports it; the ended job. */
    async importArchive(archive: Buffer, extra: Record<string, unknown> = {}): Promise<JobRow> {
      const up = await client.upload(archive);
      if (up.status !== 201) throw new Error(`upload answered ${up.status}: ${JSON.stringify(up.body)}`);
      return client.importJob({ source: { kind: 'upload', uploadId: up.body.uploadId }, ...extra });
    },
  };
  return client;
}
export type SkillsClient = ReturnType<typeof skillsClient>;

/** The result an import job recorded (success, or the failure's code, details and partial result). */
export const jobResult = (job: JobRow) => (job.result ?? {}) as Json;

/** SKILL.md text: YAML frontmatter (metadata as one-line JSON, as OpenClaw writes it) and a body. */
export function skillMd(name: string, description: string, opts: { metadata?: Record<string, unknown>; body?: string } = {}): string {
  const meta = opts.metadata ? `metadata: ${JSON.stringify(opts.metadata)}\n` : '';
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${meta}---\n\n${opts.body ?? `# ${name}\n\nInstructions for ${name}.\n`}`;
}

/** Writes a skill folder `<root>/<name>` holding `files` (SKILL.md at least). */
export function writeSkill(root: string, name: string, files: Record<string, string | Buffer>): string {
  const dir = path.join(root, name);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

/** Every regular file and symlink below `dir` (relative paths, sorted); [] when it does not exist. */
export function treeOf(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** Audit rows of an action (newest last). */
export async function auditRows(services: Services, action: string) {
  return services.database.rows<{ action: string; target_id: string | null; actor_label: string; before: string | null; after: string | null }>(
    sql`select action, target_id, actor_label, before::text as before, after::text as after from audit_log where action = ${action} order by id`,
  );
}
