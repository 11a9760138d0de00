// Signs in through next-auth's real credentials flow and calls the API like the console does.
import { setupToken } from './server';

export const PASSWORD = 'correct horse battery staple';

export class Client {
  constructor(
    readonly base: string,
    readonly auth: { cookie?: string; token?: string } = {},
  ) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const h: Record<string, string> = { origin: this.base, ...extra };
    if (this.auth.cookie) h.cookie = this.auth.cookie;
    if (this.auth.token) h.authorization = `Bearer ${this.auth.token}`;
    return h;
  }

  async req(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any; res: Response }> {
    const res = await fetch(this.base + path, {
      method,
      headers: this.headers(body !== undefined ? { 'content-type': 'application/json', ...headers } : headers),
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      redirect: 'manual',
    });
    const text = await res.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, json, res };
  }
}

function collectCookies(res: Response, jar: Map<string, string>) {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const i = pair.indexOf('=');
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
}

export async function login(base: string, email: string, password = PASSWORD): Promise<Client> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const csrfRes = await fetch(`${base}/api/auth/csrf`);
  collectCookies(csrfRes, jar);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader() },
    body: new URLSearchParams({ csrfToken, email, password, json: 'true' }),
  });
  collectCookies(res, jar);
  if (![...jar.keys()].some((k) => k.includes('session-token'))) throw new Error(`login failed for ${email}: ${res.status} ${await res.text()}`);
  return new Client(base, { cookie: cookieHeader() });
}

/** First-run setup, then an owner session, then one user per other role. */
export async function seedUsers(server: { base: string; dataDir: string }): Promise<Record<'owner' | 'admin' | 'operator' | 'viewer', Client>> {
  const { base } = server;
  const setup = await fetch(`${base}/api/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@example.com', name: 'Owner', password: PASSWORD, token: setupToken(server.dataDir) }),
  });
  if (setup.status !== 201) throw new Error(`setup failed: ${setup.status} ${await setup.text()}`);
  const owner = await login(base, 'owner@example.com');
  const out = { owner } as Record<'owner' | 'admin' | 'operator' | 'viewer', Client>;
  for (const role of ['admin', 'operator', 'viewer'] as const) {
    const r = await owner.req('POST', '/api/v1/users', { email: `${role}@example.com`, name: role, role, password: PASSWORD });
    if (r.status !== 201) throw new Error(`creating ${role}: ${r.status} ${JSON.stringify(r.json)}`);
    out[role] = await login(base, `${role}@example.com`);
  }
  return out;
}

/** Polls a job until it ends; the last answer (its state is what the caller checks). */
export async function jobEnd(c: Client, id: string, timeoutMs = 180_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let job = (await c.req('GET', `/api/v1/jobs/${id}`)).json;
  while (!['succeeded', 'failed', 'canceled'].includes(job?.state) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    job = (await c.req('GET', `/api/v1/jobs/${id}`)).json;
  }
  return job;
}
