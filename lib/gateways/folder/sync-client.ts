// The agent gateway routes as the folder sync reads them: the effective skills list (ETag), bundles
// of skills with their files' bytes, one skill's file list, one file's bytes. Failures become a SyncFailure with the exit code the command
// ends with and a sentence a person can act on.
import { trimEndChar } from '../../core/text';
import { CLIENT_HEADER, type FolderClientReport, formatClientHeader } from './client-header';

export const EXIT = { ok: 0, differs: 1, usage: 2, auth: 3, notFound: 4, unreachable: 5, failed: 6 } as const;

export class SyncFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    /** Worth trying again later (the server is down or busy), as opposed to a wrong token or agent. */
    readonly transient = false,
  ) {
    super(message);
  }
}

export interface RemoteSkill {
  name: string;
  /** The skill's content hash when the server reports it: an unchanged one needs no file list. */
  contentHash?: string;
}

export interface SkillsList {
  version: string;
  skills: RemoteSkill[];
}

export interface RemoteFile {
  path: string;
  size: number;
  sha256: string;
  mode?: number;
}

export interface BundleSkill {
  name: string;
  contentHash: string;
  files: (RemoteFile & { contentBase64: string | null })[];
}

export interface Bundle {
  version: string;
  skills: BundleSkill[];
  /** Names no longer among the agent's skills. */
  missing: string[];
}

export interface GatewayClientOptions {
  url: string;
  agentId: string;
  token: string;
  fetch?: typeof fetch;
}

export class GatewayClient {
  readonly base: string;
  private readonly fetchFn: typeof fetch;
  requests = 0;
  /** Sent with every request, so the console can show this client's status. */
  report: FolderClientReport | null = null;

  constructor(private readonly o: GatewayClientOptions) {
    this.base = `${trimEndChar(o.url, '/')}/api/v1/agents/${encodeURIComponent(o.agentId)}`;
    this.fetchFn = o.fetch ?? fetch;
  }

  get agentId(): string {
    return this.o.agentId;
  }

  /** A request with the token; transport errors and error statuses become SyncFailures. */
  async request(pathAndQuery: string, init: RequestInit & { okStatuses?: number[] } = {}): Promise<Response> {
    const url = `${this.base}${pathAndQuery}`;
    this.requests++;
    let res: Response;
    try {
      const headers: Record<string, string> = { authorization: `Bearer ${this.o.token}`, ...(init.headers as Record<string, string>) };
      if (this.report) headers[CLIENT_HEADER] = formatClientHeader(this.report);
      res = await this.fetchFn(url, { ...init, headers });
    } catch (e) {
      if ((e as Error).name === 'AbortError') throw e;
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new SyncFailure(`Cannot reach ${this.o.url}: ${cause?.code ?? cause?.message ?? (e as Error).message}.`, EXIT.unreachable, true);
    }
    if (res.ok || init.okStatuses?.includes(res.status)) return res;
    throw await failureOf(res, this.o.agentId, this.o.url);
  }

  /** The effective skills; null when `etag` still names the current version (304). */
  async skills(etag: string | null): Promise<(SkillsList & { etag: string | null }) | null> {
    const res = await this.request('/skills', { headers: etag ? { 'if-none-match': etag } : {}, okStatuses: [304] });
    if (res.status === 304) return null;
    type Listed = { name: string; contentHash?: string };
    const body = (await res.json()) as { version: string; skills: Listed[]; commands?: Listed[] };
    // The folder holds every skill the agent may use: those in the prompt and the user-only commands
    // (their SKILL.md tells the client they are not for the model).
    const all = new Map<string, Listed>();
    for (const s of [...body.skills, ...(body.commands ?? [])]) if (!all.has(s.name)) all.set(s.name, s);
    return {
      version: body.version,
      etag: res.headers.get('etag'),
      skills: [...all.values()].map((s) => ({ name: s.name, ...(typeof s.contentHash === 'string' ? { contentHash: s.contentHash } : {}) })),
    };
  }

  async files(skill: string): Promise<RemoteFile[]> {
    const res = await this.request(`/skills/${encodeURIComponent(skill)}`);
    const body = (await res.json()) as { files: RemoteFile[] };
    return body.files;
  }

  /** Several skills with their files' bytes (a file past the server's limits comes without them). */
  async bundle(names: string[]): Promise<Bundle> {
    const res = await this.request(`/skill-files?names=${encodeURIComponent(names.join(','))}`);
    return (await res.json()) as Bundle;
  }

  async file(skill: string, path: string): Promise<Buffer> {
    const res = await this.request(`/skills/${encodeURIComponent(skill)}/files?path=${encodeURIComponent(path)}`);
    const body = (await res.json()) as { content: string | null; contentBase64: string | null };
    return body.contentBase64 !== null ? Buffer.from(body.contentBase64, 'base64') : Buffer.from(body.content ?? '', 'utf8');
  }
}

async function failureOf(res: Response, agentId: string, url: string): Promise<SyncFailure> {
  let message = '';
  try {
    const body = (await res.json()) as { error?: { message?: string } };
    message = body.error?.message ?? '';
  } catch {
    /* not JSON */
  }
  const said = message ? ` (${message})` : '';
  if (res.status === 401) return new SyncFailure(`The token was refused by ${url}${said}: check --token or SKILLDOCK_TOKEN.`, EXIT.auth);
  if (res.status === 403) return new SyncFailure(`The token may not read agent "${agentId}"${said}: use a token scoped to it with agents.read.`, EXIT.auth);
  if (res.status === 404) return new SyncFailure(`Not found on ${url}${said}.`, EXIT.notFound);
  const transient = res.status === 429 || res.status >= 500;
  return new SyncFailure(`${url} answered ${res.status}${said}.`, transient ? EXIT.unreachable : EXIT.failed, transient);
}
