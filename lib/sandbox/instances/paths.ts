// Paths an operator names inside a sandbox's workspace: relative to /workspace, normalised, never
// out of it (no "..", no NUL), so the artifacts browser cannot be turned into a reader of /etc.
import path from 'node:path/posix';
import { AppError } from '../../core/errors';

export const WORKSPACE = '/workspace';
const MAX_PATH = 1024;

export function resolveSandboxPath(rel: string, opts: { under?: string } = {}): string {
  const bad = (message: string) => new AppError('validation', message, { issues: [{ path: 'path', message }] });
  if (typeof rel !== 'string' || rel.length > MAX_PATH) throw bad(`A path inside /workspace, at most ${MAX_PATH} characters.`);
  if (rel.includes('\0')) throw bad('A path cannot contain NUL.');
  const trimmed = rel.replace(/^\/workspace(?=\/|$)/, '').replace(/^\/+/, '');
  if (trimmed.split('/').some((s) => s === '..')) throw bad('A path cannot climb out of /workspace ("..").');
  const abs = path.normalize(path.join(WORKSPACE, trimmed));
  const root = opts.under ? path.join(WORKSPACE, opts.under) : WORKSPACE;
  if (abs !== root && !abs.startsWith(`${root}/`)) throw bad(`The path must be inside ${root}.`);
  if (opts.under && abs === root) throw bad('Name a file.');
  return abs;
}
