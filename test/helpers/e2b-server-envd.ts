// The envd half of the loopback E2B server: Connect-RPC JSON process calls, `/files` and ListDir,
// executed for real in the sandbox's Docker container (docker exec, the archive API).
import type http from 'node:http';
import path from 'node:path/posix';
import { buildTar } from '@/lib/sandbox/docker/tar';
import { execIn, killIn, startProcess } from './e2b-server-exec';
import type { FakeSandbox } from './e2b-server-types';

export type { FakeSandbox };

export interface EnvdOptions {
  /** Reject envd calls without `Authorization: Basic` (some E2B-compatible envds do). */
  strictUser?: boolean;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const rpcError = (res: http.ServerResponse, status: number, code: string, message: string) => json(res, status, { code, message });

async function readBody(req: http.IncomingMessage, max = 64 << 20): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) throw new Error('body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

function userOf(req: http.IncomingMessage): string | undefined {
  const m = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (!m?.[1]) return undefined;
  return Buffer.from(m[1], 'base64').toString('utf8').split(':')[0] || undefined;
}

function resolvePath(p: string, user: string): string {
  const home = user === 'root' ? '/root' : `/home/${user}`;
  return path.isAbsolute(p) ? path.normalize(p) : path.join(home, p);
}

/** The first file part of a multipart body. */
function multipartFile(body: Buffer, contentType: string): Buffer | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const b = boundary?.[1] ?? boundary?.[2];
  if (!b) return undefined;
  const delim = Buffer.from(`--${b}`);
  const start = body.indexOf(delim);
  if (start < 0) return undefined;
  const headEnd = body.indexOf('\r\n\r\n', start);
  const next = body.indexOf(Buffer.from(`\r\n--${b}`), headEnd);
  if (headEnd < 0 || next < 0) return undefined;
  return body.subarray(headEnd + 4, next);
}

/** The bytes of the single regular file in a tar from getArchive. */
function tarFile(tar: Buffer): Buffer | 'dir' {
  const type = String.fromCharCode(tar[156] ?? 48);
  if (type === '5') return 'dir';
  const size = Number.parseInt(tar.subarray(124, 136).toString('ascii').replace(/\0.*$/, '').trim() || '0', 8);
  return tar.subarray(512, 512 + size);
}

async function streamToBuffer(s: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function handleEnvd(sb: FakeSandbox, req: http.IncomingMessage, res: http.ServerResponse, url: URL, opts: EnvdOptions): Promise<void> {
  if (url.pathname === '/health') return void res.writeHead(204).end();
  if (sb.secure && req.headers['x-access-token'] !== sb.accessToken) {
    return url.pathname === '/files'
      ? json(res, 401, { code: 401, message: 'invalid access token' })
      : rpcError(res, 401, 'unauthenticated', 'invalid access token');
  }
  const basicUser = userOf(req);
  if (opts.strictUser && !basicUser) return rpcError(res, 401, 'unauthenticated', 'no user specified');
  const user = url.searchParams.get('username') || basicUser || 'user';

  if (url.pathname === '/files') return files(sb, req, res, url, user);
  if (req.method !== 'POST') return rpcError(res, 404, 'not_found', `no route ${url.pathname}`);
  if (url.pathname === '/process.Process/Start') return startProcess(sb, req, res, user, await readBody(req));
  if (url.pathname === '/process.Process/Connect') {
    const body = await readBody(req);
    const msg = JSON.parse(body.subarray(5).toString('utf8')) as { process?: { pid?: number } };
    const p = sb.processes.get(Number(msg.process?.pid));
    if (!p) return rpcError(res, 404, 'not_found', 'process not found');
    return p.attach(res);
  }
  const msg = JSON.parse((await readBody(req)).toString('utf8') || '{}') as {
    process?: { pid?: number };
    input?: { stdin?: string; pty?: string };
    signal?: string;
    pty?: { size?: { cols?: number; rows?: number } };
    path?: string;
  };
  const proc = () => sb.processes.get(Number(msg.process?.pid));
  switch (url.pathname) {
    case '/process.Process/List':
      return json(res, 200, { processes: [...sb.processes.entries()].filter(([, p]) => !p.ended).map(([pid, p]) => ({ pid, config: p.config })) });
    case '/process.Process/SendInput': {
      const p = proc();
      if (!p) return rpcError(res, 404, 'not_found', 'process not found');
      p.write(Buffer.from(msg.input?.stdin ?? msg.input?.pty ?? '', 'base64'));
      return json(res, 200, {});
    }
    case '/process.Process/CloseStdin': {
      const p = proc();
      if (!p) return rpcError(res, 404, 'not_found', 'process not found');
      p.closeStdin();
      return json(res, 200, {});
    }
    case '/process.Process/SendSignal': {
      const p = proc();
      if (!p) return rpcError(res, 404, 'not_found', 'process not found');
      await killIn(sb, p, msg.signal === 'SIGNAL_SIGTERM' ? 'TERM' : 'KILL');
      return json(res, 200, {});
    }
    case '/process.Process/Update': {
      const p = proc();
      if (!p) return rpcError(res, 404, 'not_found', 'process not found');
      const size = msg.pty?.size;
      if (size?.cols && size.rows) await p.resize(size.cols, size.rows);
      return json(res, 200, {});
    }
    case '/filesystem.Filesystem/ListDir':
      return listDir(sb, res, resolvePath(msg.path ?? '.', user));
    default:
      return rpcError(res, 404, 'not_found', `no route ${url.pathname}`);
  }
}

async function files(sb: FakeSandbox, req: http.IncomingMessage, res: http.ServerResponse, url: URL, user: string): Promise<void> {
  const p = resolvePath(url.searchParams.get('path') ?? '', user);
  if (req.method === 'GET') {
    let tar: Buffer;
    try {
      tar = await streamToBuffer(await sb.container.getArchive({ path: p }));
    } catch (e) {
      const status = (e as { statusCode?: number }).statusCode === 404 ? 404 : 500;
      return json(res, status, { code: status, message: status === 404 ? `path '${p}' does not exist` : String(e) });
    }
    const data = tarFile(tar);
    if (data === 'dir') return json(res, 400, { code: 400, message: `path '${p}' is a directory` });
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(data.length) });
    return void res.end(data);
  }
  if (req.method !== 'POST') return json(res, 405, { code: 405, message: 'method not allowed' });
  const body = await readBody(req);
  const ct = req.headers['content-type'] ?? '';
  const data = ct.startsWith('multipart/form-data') ? multipartFile(body, ct) : ct.startsWith('application/octet-stream') ? body : undefined;
  if (!data) return json(res, 400, { code: 400, message: 'expected multipart/form-data with a file part' });
  const dir = path.dirname(p);
  const mk = await execIn(sb, ['mkdir', '-p', dir]);
  if (mk.exitCode !== 0) return json(res, 500, { code: 500, message: mk.stderr });
  await sb.container.putArchive(buildTar([{ type: 'file', name: path.basename(p), data }]), { path: dir });
  if (user !== 'root') await execIn(sb, ['chown', `${user}:${user}`, p]);
  return json(res, 200, [{ path: p, name: path.basename(p), type: 'file' }]);
}

async function listDir(sb: FakeSandbox, res: http.ServerResponse, dir: string): Promise<void> {
  const r = await execIn(sb, ['find', dir, '-mindepth', '1', '-maxdepth', '1', '-exec', 'stat', '-c', '%n|%F|%s|%Y', '{}', '+']);
  if (r.exitCode !== 0) return rpcError(res, 404, 'not_found', `path '${dir}' does not exist`);
  const entries = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [p = '', kind = '', size = '0', mtime = '0'] = line.split('|');
      const type = kind.startsWith('directory') ? 'FILE_TYPE_DIRECTORY' : kind.startsWith('symbolic') ? 'FILE_TYPE_SYMLINK' : 'FILE_TYPE_FILE';
      return { name: path.basename(p), path: p, type, size, modifiedTime: new Date(Number(mtime) * 1000).toISOString() };
    });
  return json(res, 200, { entries });
}
