import { valid as pep440Valid } from '@renovatebot/pep440';
import semver from 'semver';
import { AppError } from '../core/errors';
import { trimChar } from '../core/text';
import type { PackageSpec, SystemManager } from './types';

/**
 * The one package-spec grammar, shared by install, uninstall,
 * update, SKILL.md `deps:` and the UI. Everything is allowlisted: a spec that parses is safe to pass
 * to a package manager as argv elements.
 */
export type SpecContext = 'install' | 'deps' | 'uninstall';

const MAX_SPEC = 256;
const ALL_FORMS = 'pip:name[extras]==1.2.3, npm:[@scope/]name[@version], system:name (or a bare name), apt:name, apk:name, github:owner/repo[@tag]';
const FORMS = {
  pip: 'pip:name, pip:name==1.2.3, pip:name[extra1,extra2]>=1.2,<2',
  npm: 'npm:name, npm:@scope/name, npm:name@1.2.3, npm:name@^1.2, npm:name@latest',
  system: 'system:name or a bare name (a Debian/Alpine package name: lowercase letters, digits, + . -)',
  github: 'github:owner/repo or github:owner/repo@v1.2.3',
  githubUninstall: 'github:owner/repo or github:name (the installed name)',
} as const;

const PEP508_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/;
const PEP440_VERSION = /^(?:\d+!)?\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?(?:\+[a-z0-9]+(?:\.[a-z0-9]+)*)?$/i;
const PEP440_PREFIX = /^(?:\d+!)?\d+(?:\.\d+)*\.\*$/;
const PEP440_CLAUSE = /^(===|==|!=|<=|>=|~=|<|>)(.*)$/;
const NPM_PART = /^[a-z0-9._-]+$/;
const NPM_VERSION_CHARS = /^[0-9A-Za-z.^~<>=*+-]+$/;
const NPM_DIST_TAG = /^[a-z][a-z0-9-]{0,63}$/;
const NPM_NON_REGISTRY = /^(git\+|git:|file:|link:|workspace:|npm:|github:|gitlab:|bitbucket:|https?:)/i;
// process-wide: a constant table, never written
const NPM_RESERVED = new Set(['node_modules', 'favicon.ico']);
const SYSTEM_NAME = /^[a-z0-9][a-z0-9+.-]{0,99}$/;
const GH_OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const GH_REPO = /^[A-Za-z0-9._-]{1,100}$/;
const GH_TAG = /^[A-Za-z0-9._+-]{1,128}$/;
// Characters no form of the grammar uses. `<>=!~^*` stay: they are operators of pip/npm versions
// and are checked by those grammars.
// process-wide: a constant table, never written
const SHELL_META = new Set([...';&|$`\\\'"(){}#%?']);
const PREFIXES = ['pip', 'npm', 'system', 'apt', 'apk', 'github'];

function show(raw: string): string {
  let s = '';
  for (const ch of Array.from(raw).slice(0, 80)) {
    const cp = ch.codePointAt(0)!;
    s += cp >= 0x20 && cp < 0x7f ? ch : `\\u{${cp.toString(16)}}`;
  }
  return `"${s}${raw.length > 80 ? '…' : ''}"`;
}

function fail(raw: string, what: string, accepted: string = ALL_FORMS): never {
  const message = `Invalid package spec ${show(raw)}: ${what}. Accepted forms: ${accepted}.`;
  throw new AppError('validation', message, { issues: [{ path: 'spec', message }] });
}

const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Rejects control characters, non-ASCII, whitespace and shell metacharacters, naming the first one found. */
function screenCharacters(raw: string, spacesAroundCommas: boolean): void {
  const chars = Array.from(raw);
  chars.forEach((ch, i) => {
    const cp = ch.codePointAt(0)!;
    const pos = i + 1;
    if (cp === 0) fail(raw, `NUL byte at position ${pos}`);
    if (cp < 0x20 || cp === 0x7f) fail(raw, `control character ${codePoint(ch)} at position ${pos}`);
    if (cp > 0x7f) {
      fail(raw, `non-ASCII character ${codePoint(ch)} at position ${pos} (package names are ASCII; this may be a look-alike of a Latin letter)`);
    }
    if (ch === ' ') {
      const left = raw.slice(0, i).trimEnd().slice(-1);
      const right = raw.slice(i + 1).trimStart()[0];
      if (!(spacesAroundCommas && (left === ',' || right === ','))) fail(raw, `whitespace at position ${pos}`);
    }
    if (SHELL_META.has(ch)) fail(raw, `shell metacharacter '${ch}' at position ${pos}`);
  });
}

function noOption(raw: string, part: string, accepted: string): void {
  if (part.startsWith('-')) fail(raw, `"${part.slice(0, 40)}" starts with '-', which a package manager would read as an option`, accepted);
}

function parsePip(raw: string, body: string): PackageSpec {
  const accepted = FORMS.pip;
  const m = /^([^[\]=!<>~,]*)(?:\[([^\]]*)\])?([\s\S]*)$/.exec(body)!;
  const [, name, extrasText, specifier] = m;
  if (!name) fail(raw, 'pip: needs a package name', accepted);
  if (name.includes('@')) fail(raw, 'pip versions are written with ==, e.g. pip:name==1.2.3; direct references (name @ url) are not accepted', accepted);
  noOption(raw, name, accepted);
  if (name.length > 100) fail(raw, `the pip name is ${name.length} characters long; the limit is 100`, accepted);
  if (!PEP508_NAME.test(name)) {
    fail(raw, `"${name}" is not a valid pip name (letters, digits, '.', '_', '-'; starting and ending with a letter or digit)`, accepted);
  }
  let extras: string[] | undefined;
  if (extrasText !== undefined) {
    const list = extrasText.split(',');
    for (const e of list) {
      if (!PEP508_NAME.test(e) || e.length > 100) fail(raw, `extra "${e}" is not a valid extra name`, accepted);
    }
    extras = [...new Set(list.map(normalizePipName))].sort();
  }
  const version = specifier ? parsePep440Specifier(raw, specifier) : undefined;
  return { raw, manager: 'pip', name, ...(version ? { version } : {}), ...(extras ? { extras } : {}) };
}

function parsePep440Specifier(raw: string, specifier: string): string {
  const accepted = FORMS.pip;
  const clauses = specifier.split(',');
  if (clauses.length > 10) fail(raw, 'a version specifier has at most 10 clauses', accepted);
  for (const clause of clauses) {
    const m = PEP440_CLAUSE.exec(clause);
    const bad = `version specifier "${clause}" is not valid (expected clauses such as ==1.2.3 or >=1.2,<2 with the operators == != <= >= < > ~= ===; no markers or URLs)`;
    if (!m) fail(raw, bad, accepted);
    const [, op, v] = m;
    if (PEP440_PREFIX.test(v)) {
      if (op !== '==' && op !== '!=') fail(raw, `a ".*" prefix match is only allowed with == and != (got "${clause}")`, accepted);
      continue;
    }
    if (!PEP440_VERSION.test(v) || pep440Valid(v) === null) fail(raw, bad, accepted);
    if (v.includes('+') && !['==', '!=', '==='].includes(op)) {
      fail(raw, `a local version (+…) is only allowed with ==, != and === (got "${clause}")`, accepted);
    }
    if (
      op === '~=' &&
      v
        .replace(/^\d+!/, '')
        .split(/[^0-9.]/)[0]
        .split('.').length < 2
    ) {
      fail(raw, `~= needs at least two release segments, e.g. ~=1.4 (got "${clause}")`, accepted);
    }
  }
  return clauses.join(',');
}

function checkNpmPart(raw: string, part: string, what: string): void {
  const accepted = FORMS.npm;
  noOption(raw, part, accepted);
  if (/[A-Z]/.test(part)) fail(raw, `npm ${what} "${part}" has uppercase letters; npm names are lowercase`, accepted);
  if (part.startsWith('.') || part.startsWith('_')) fail(raw, `npm ${what} "${part}" starts with '${part[0]}'`, accepted);
  if (!NPM_PART.test(part)) fail(raw, `npm ${what} "${part}" may contain only lowercase letters, digits, '.', '_' and '-'`, accepted);
}

function parseNpm(raw: string, body: string): PackageSpec {
  const accepted = FORMS.npm;
  if (NPM_NON_REGISTRY.test(body)) fail(raw, 'git, file and URL references are not accepted; name a package from the registry', accepted);
  const m = body.startsWith('@') ? /^(@[^/@]*\/[^@]*)(?:@(.*))?$/.exec(body) : /^([^@]*)(?:@(.*))?$/.exec(body);
  if (!m) fail(raw, 'a scoped name looks like @scope/name', accepted);
  const [, name, version] = m;
  if (!name) fail(raw, 'npm: needs a package name', accepted);
  if (name.length > 214) fail(raw, `the npm name is ${name.length} characters long; the limit is 214`, accepted);
  if (name.startsWith('@')) {
    const slash = name.indexOf('/');
    const scope = name.slice(1, slash);
    const pkg = name.slice(slash + 1);
    if (pkg.includes('/')) fail(raw, `"${name}" has more than one '/'`, accepted);
    if (!scope) fail(raw, `"${name}" has an empty scope`, accepted);
    if (!pkg) fail(raw, `"${name}" needs a package name after the scope, e.g. @${scope}/name`, accepted);
    checkNpmPart(raw, scope, 'scope');
    checkNpmPart(raw, pkg, 'name');
  } else {
    if (name.includes('/'))
      fail(raw, `"${name}" is not an npm name (owner/repo shorthands are not accepted; use github:owner/repo for GitHub releases)`, accepted);
    checkNpmPart(raw, name, 'name');
    if (NPM_RESERVED.has(name)) fail(raw, `"${name}" is a reserved npm name`, accepted);
  }
  if (version === undefined) return { raw, manager: 'npm', name };
  if (!version) fail(raw, `"${name}@" needs a version, range or dist-tag after '@'`, accepted);
  if (NPM_NON_REGISTRY.test(version)) fail(raw, 'git, file and URL references are not accepted; name a registry version, range or dist-tag', accepted);
  noOption(raw, version, accepted);
  const isRange = NPM_VERSION_CHARS.test(version) && /[0-9*xX]/.test(version) && semver.validRange(version) !== null;
  if (!isRange && !NPM_DIST_TAG.test(version)) {
    fail(raw, `"${version}" is not a semver version (1.2.3), range (^1.2, ~1.2.3, >=1.2.0) or dist-tag (latest, next)`, accepted);
  }
  return { raw, manager: 'npm', name, version };
}

function parseSystem(raw: string, body: string, systemManager?: SystemManager): PackageSpec {
  const accepted = FORMS.system;
  if (!body) fail(raw, 'a system package needs a name', accepted);
  noOption(raw, body, accepted);
  if (body.includes('=')) fail(raw, 'system packages take no version', accepted);
  if (/[A-Z]/.test(body)) fail(raw, `"${body}" has uppercase letters; Debian and Alpine package names are lowercase`, accepted);
  if (!SYSTEM_NAME.test(body)) {
    fail(
      raw,
      `"${body.slice(0, 120)}" is not a valid system package name (lowercase letters, digits, '+', '.', '-'; starting with a letter or digit; at most 100 characters)`,
      accepted,
    );
  }
  return { raw, manager: 'system', name: body, ...(systemManager ? { systemManager } : {}) };
}

function parseGithub(raw: string, body: string, context: SpecContext): PackageSpec {
  const accepted = context === 'uninstall' ? FORMS.githubUninstall : FORMS.github;
  const at = body.indexOf('@');
  const path = at === -1 ? body : body.slice(0, at);
  const tag = at === -1 ? undefined : body.slice(at + 1);
  if (!path) fail(raw, 'github: needs owner/repo', accepted);
  const parts = path.split('/');
  if (parts.length === 1 && context === 'uninstall') {
    noOption(raw, path, accepted);
    if (!GH_REPO.test(path) || path === '.' || path === '..') fail(raw, `"${path}" is not a valid installed name`, accepted);
    if (tag !== undefined) fail(raw, 'an installed name takes no tag', accepted);
    return { raw, manager: 'github', name: path };
  }
  if (parts.length !== 2) fail(raw, `"${path}" must be exactly owner/repo`, accepted);
  const [owner, repo] = parts;
  if (!GH_OWNER.test(owner)) fail(raw, `"${owner}" is not a valid GitHub owner (1–39 letters, digits or '-', starting with a letter or digit)`, accepted);
  if (!GH_REPO.test(repo) || repo === '.' || repo === '..') {
    fail(raw, `"${repo}" is not a valid repository name (1–100 letters, digits, '.', '_' or '-'; not '.' or '..')`, accepted);
  }
  noOption(raw, repo, accepted);
  if (tag === undefined) return { raw, manager: 'github', name: `${owner}/${repo}` };
  if (!tag) fail(raw, 'a tag is needed after "@"', accepted);
  noOption(raw, tag, accepted);
  if (!GH_TAG.test(tag) || tag === '.' || tag === '..') {
    fail(raw, `"${tag}" is not a valid tag (1–128 letters, digits, '.', '_', '+' or '-'; not '.' or '..')`, accepted);
  }
  return { raw, manager: 'github', name: `${owner}/${repo}`, version: tag };
}

export function parsePackageSpec(raw: string, opts: { context?: SpecContext } = {}): PackageSpec {
  const context = opts.context ?? 'install';
  if (typeof raw !== 'string') fail(String(raw), 'a package spec is a string');
  if (raw.length > MAX_SPEC) fail(raw, `it is ${raw.length} characters long; the limit is ${MAX_SPEC}`);
  if (!raw) fail(raw, 'it is empty');
  if (raw.includes('://')) fail(raw, 'URLs are not accepted; name a package from its index, registry or GitHub repository');
  screenCharacters(raw, raw.startsWith('pip:'));
  noOption(raw, raw, ALL_FORMS);
  const colon = raw.indexOf(':');
  if (colon === -1) return parseSystem(raw, raw);
  const prefix = raw.slice(0, colon);
  const body = raw.slice(colon + 1);
  switch (prefix) {
    case 'pip':
      return parsePip(
        raw,
        body
          .split(',')
          .map((p) => trimChar(p, ' '))
          .join(','),
      );
    case 'npm':
      return parseNpm(raw, body);
    case 'system':
      return parseSystem(raw, body);
    case 'apt':
    case 'apk':
      return parseSystem(raw, body, prefix);
    case 'github':
      return parseGithub(raw, body, context);
    default: {
      const lower = PREFIXES.includes(prefix.toLowerCase()) ? ` (prefixes are lowercase: ${prefix.toLowerCase()}:)` : '';
      return fail(raw, `unknown prefix "${prefix.slice(0, 40)}:"${lower}; the accepted prefixes are ${PREFIXES.map((p) => `${p}:`).join(', ')} or none`);
    }
  }
}

/** PEP 503 normalisation: lowercase, runs of `-`, `_`, `.` become one `-`. */
export function normalizePipName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** The canonical string of a parsed spec; parsing it again gives the same spec. */
export function formatSpec(spec: PackageSpec): string {
  switch (spec.manager) {
    case 'pip':
      return `pip:${spec.name}${spec.extras?.length ? `[${spec.extras.join(',')}]` : ''}${spec.version ?? ''}`;
    case 'npm':
      return `npm:${spec.name}${spec.version ? `@${spec.version}` : ''}`;
    case 'github':
      return `github:${spec.name}${spec.version ? `@${spec.version}` : ''}`;
    default:
      return `${spec.systemManager ?? (spec.manager === 'system' ? 'system' : spec.manager)}:${spec.name}`;
  }
}

/** One lock key per manager and canonical name: versions, extras and aliases don't split the lock. */
export function specLockKey(spec: PackageSpec): string {
  switch (spec.manager) {
    case 'pip':
      return `pip:${normalizePipName(spec.name)}`;
    case 'github':
      return `github:${spec.name.toLowerCase()}`;
    case 'npm':
      return `npm:${spec.name}`;
    default:
      return `system:${spec.name}`;
  }
}
