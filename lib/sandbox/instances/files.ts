// The files of a running sandbox, through the backend's file API only: paths are resolved and kept
// under /workspace first (never a program run inside the sandbox by name).
import type { Readable } from 'node:stream';
import { recordAudit } from '../../audit/audit';
import type { Actor } from '../../auth/actor';
import type { FileEntry } from '../backend';
import { resolveSandboxPath } from './paths';
import { type InstanceDeps, resolve } from './service';

export async function listInstanceFiles(deps: InstanceDeps, id: string, dir: string): Promise<{ path: string; entries: FileEntry[] }> {
  const { backend, sandbox } = await resolve(deps, id);
  const p = resolveSandboxPath(dir);
  return { path: p, entries: await backend.listFiles(sandbox.id, p) };
}

export async function readInstanceFile(deps: InstanceDeps, id: string, file: string, maxBytes: number): Promise<{ path: string; stream: Readable }> {
  const { backend, sandbox } = await resolve(deps, id);
  const p = resolveSandboxPath(file);
  return { path: p, stream: await backend.readFile(sandbox.id, p, maxBytes) };
}

export async function uploadInstanceFile(deps: InstanceDeps, actor: Actor, id: string, name: string, data: Buffer): Promise<{ path: string; bytes: number }> {
  const { backend, sandbox } = await resolve(deps, id);
  const p = resolveSandboxPath(`input/${name}`, { under: 'input' });
  await backend.writeFile(sandbox.id, p, data);
  await recordAudit(deps.db, actor, { action: 'sandbox.instance.upload', targetType: 'sandbox', targetId: id, after: { path: p, bytes: data.length } });
  return { path: p, bytes: data.length };
}
