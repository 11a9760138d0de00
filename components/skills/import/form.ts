import { type ImportInput, importInput } from '@/lib/skills/service/schemas';
import { ARCHIVE_RE, formatBytes } from './upload';

export type SourceKindTab = 'upload' | 'git' | 'url' | 'clawhub';

export interface ImportForm {
  kind: SourceKindTab;
  file: File | null;
  gitUrl: string;
  gitRef: string;
  gitSubdir: string;
  url: string;
  clawhubRef: string;
  clawhubVersion: string;
  ownerHandle: string;
  slug: string;
  force: boolean;
}

export const EMPTY_FORM: ImportForm = {
  kind: 'upload',
  file: null,
  gitUrl: '',
  gitRef: '',
  gitSubdir: '',
  url: '',
  clawhubRef: '',
  clawhubVersion: '',
  ownerHandle: '',
  slug: '',
  force: false,
};

/** A placeholder upload id that passes the schema, so the other fields validate before the upload exists. */
const PENDING_UPLOAD = 'pending-upload-0000';

const opt = (s: string) => (s.trim() ? s.trim() : undefined);

/**
 * `slug`, `@owner/slug`, `slug@version` or `@owner/slug@version`: the publisher and version go
 * into the ref itself, the one form every ClawHub resolver accepts.
 */
export function clawhubRef(ref: string, owner: string, version = ''): string {
  let r = ref.trim();
  const o = owner.trim().replace(/^@/, '');
  if (o && !r.startsWith('@')) r = `@${o}/${r}`;
  const v = version.trim();
  if (v && !/@[^/]*$/.test(r.replace(/^@/, ''))) r = `${r}@${v}`;
  return r;
}

/** The API input for the form (an upload's id filled in once it is known). */
export function toInput(f: ImportForm, uploadId = PENDING_UPLOAD): ImportInput {
  const source: ImportInput['source'] =
    f.kind === 'upload'
      ? { kind: 'upload', uploadId }
      : f.kind === 'git'
        ? { kind: 'git', url: f.gitUrl.trim(), ...(opt(f.gitRef) ? { ref: opt(f.gitRef) } : {}), ...(opt(f.gitSubdir) ? { subdir: opt(f.gitSubdir) } : {}) }
        : f.kind === 'url'
          ? { kind: 'url', url: f.url.trim() }
          : { kind: 'clawhub', ref: clawhubRef(f.clawhubRef, f.ownerHandle, f.clawhubVersion) };
  return { source, force: f.force, ...(opt(f.slug) ? { slug: opt(f.slug) } : {}) };
}

/** Field name in the form for a schema issue path. */
function fieldOf(kind: SourceKindTab, path: PropertyKey[]): string {
  if (path[0] !== 'source') return String(path[0]);
  const key = String(path[1] ?? '');
  if (kind === 'git') return key === 'ref' ? 'gitRef' : key === 'subdir' ? 'gitSubdir' : 'gitUrl';
  if (kind === 'clawhub') return 'clawhubRef';
  if (kind === 'upload') return 'file';
  return 'url';
}

/**
 * Problems by field, from the server's own schema plus what only the browser can tell (no file,
 * wrong extension, over the upload limit). Empty required fields count as problems only once
 * `touched` (so a fresh form is not red).
 */
export function validate(f: ImportForm, opts: { uploadMaxMb?: number; touched: boolean }): Record<string, string> {
  const errors: Record<string, string> = {};
  const parsed = importInput.safeParse(toInput(f));
  if (!parsed.success) for (const i of parsed.error.issues) errors[fieldOf(f.kind, i.path)] ??= i.message;
  if (f.kind === 'upload') {
    if (!f.file) errors.file = 'Choose a .zip or .tar.gz archive.';
    else if (!ARCHIVE_RE.test(f.file.name)) errors.file = `${f.file.name} is not a .zip or .tar.gz archive.`;
    else if (opts.uploadMaxMb && f.file.size > opts.uploadMaxMb * 1024 * 1024)
      errors.file = `${formatBytes(f.file.size)} is over the ${opts.uploadMaxMb} MiB upload limit (Settings → Skills).`;
  }
  if (f.kind === 'git' && f.gitUrl.trim() && !/^(https?:\/\/|ssh:\/\/|git@|file:\/\/|\/)/.test(f.gitUrl.trim()))
    errors.gitUrl ??= 'A repository URL such as https://github.com/owner/repo.git';
  if (f.kind === 'url' && f.url.trim() && !/^https?:\/\/[^\s]+$/i.test(f.url.trim())) errors.url ??= 'An http(s) URL of a .zip, .tar.gz or SKILL.md';
  if (f.kind === 'clawhub' && f.clawhubVersion.trim() && !/^v?\d+\.\d+\.\d+\S*$/.test(f.clawhubVersion.trim()))
    errors.clawhubVersion = 'A version such as 1.2.3';
  if (!opts.touched) {
    const empty: Record<string, boolean> = { file: !f.file, gitUrl: !f.gitUrl.trim(), url: !f.url.trim(), clawhubRef: !f.clawhubRef.trim() };
    for (const k of Object.keys(errors)) if (empty[k]) delete errors[k];
  }
  return errors;
}

/** What the chosen source will fetch, in words, for the submit button's neighbour. */
export function describeSource(f: ImportForm): string {
  if (f.kind === 'upload') return f.file ? `${f.file.name} (${formatBytes(f.file.size)})` : 'an archive';
  if (f.kind === 'git')
    return `${f.gitUrl.trim() || 'a git repository'}${f.gitRef.trim() ? `@${f.gitRef.trim()}` : ''}${f.gitSubdir.trim() ? ` / ${f.gitSubdir.trim()}` : ''}`;
  if (f.kind === 'url') return f.url.trim() || 'a URL';
  return f.clawhubRef.trim() ? `ClawHub ${clawhubRef(f.clawhubRef, f.ownerHandle, f.clawhubVersion)}` : 'ClawHub';
}
