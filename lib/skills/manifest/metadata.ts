import JSON5 from 'json5';
import type { MetadataKey, SkillManifest, SkillRequires } from '../types';
import { at, ENV_NAME_RE, isBinName, OS_VALUES, readHomepage, readOs } from './fields';
import { readInstallSpecs } from './install';
import { describeValue, isPlainObject, type KeyPath, type Reporter, readBool, readString, readStringList, showPath, warnUnknownKeys } from './report';

/**
 * Every block name Skilldock reads, in its default precedence order (the first present wins). Which of
 * them are read, in which order, is the skills setting `metadataKeys` (a gateway flavour's own order).
 */
export const METADATA_KEYS: readonly MetadataKey[] = ['openclaw', 'nodmix', 'clawdbot', 'clawdis', 'moltbot'];
const CONFIG_PATH_RE = /^[^\s.]+(?:\.[^\s.]+)*$/;
/** "~", "~/…" or an absolute path; no control characters. */
const CONFIG_FILE_RE = /^(?:~|~\/[^\u0000-\u001f\u007f]*|\/[^\u0000-\u001f\u007f]*)$/;
const BLOCK_KEYS = ['always', 'emoji', 'homepage', 'os', 'requires', 'primaryEnv', 'skillKey', 'install'] as const;
/**
 * `requires.configs` is PulseBot's key and means config files that must exist; OpenClaw reads only
 * `config` (dotted config paths) and Nodmix, an OpenClaw distribution, documents only `config` too.
 * The block decides: in the blocks PulseBot reads (openclaw, clawdbot, clawdis, moltbot) `configs`
 * are files, as PulseBot defines them; a `nodmix` block is never PulseBot's, so there it is an
 * unknown key (warned and ignored), never a second spelling of the dotted `config`.
 */
// process-wide: a constant table, never written
const PULSEBOT_BLOCKS: ReadonlySet<MetadataKey> = new Set(['openclaw', 'clawdbot', 'clawdis', 'moltbot']);
const REQUIRES_KEYS = ['bins', 'anyBins', 'anyOf', 'env', 'config'] as const;

export type MetadataFields = Pick<SkillManifest, 'metadata' | 'metadataKey' | 'always' | 'emoji' | 'os' | 'requires' | 'primaryEnv' | 'install'> & {
  homepage?: string;
  skillKey?: string;
};

export function defaultMetadata(): MetadataFields {
  return { metadata: {}, always: false, os: [], requires: { bins: [], anyBins: [], env: [], config: [] }, install: [] };
}

/**
 * Reads `metadata` (a map, or a JSON/JSON5 object string) and the first present of its blocks in
 * `keys` order (default METADATA_KEYS); blocks not in `keys` are not read.
 */
export function readMetadata(r: Reporter, value: unknown, keys: readonly MetadataKey[] = METADATA_KEYS): MetadataFields {
  const out = defaultMetadata();
  const metadata = readMetadataMap(r, value);
  if (!metadata) return out;
  out.metadata = metadata;

  const present = keys.filter((k) => metadata[k] !== undefined && metadata[k] !== null);
  if (present.length === 0) return out;
  const key = present[0];
  if (present.length > 1) {
    const names = present.map((k) => `"${k}"`).join(' and ');
    r.warn('metadata.multiple-blocks', ['metadata', present[1]], `metadata has ${names} blocks; only "${key}" is used (order: ${keys.join(', ')}). Keep one`);
  }
  const path: KeyPath = ['metadata', key];
  const block = metadata[key];
  if (!isPlainObject(block)) {
    r.error('key.type', path, `"${showPath(path)}" must be a mapping, but it is ${describeValue(block)}; its requirements and installers are ignored`);
    return out;
  }
  out.metadataKey = key;
  warnUnknownKeys(r, block, path, BLOCK_KEYS, 'metadata.key-unknown');

  out.always = readBool(r, block.always, [...path, 'always'], false);
  const emoji = readString(r, block.emoji, [...path, 'emoji']);
  if (emoji) out.emoji = emoji;
  const homepage = readHomepage(r, block.homepage, [...path, 'homepage']);
  if (homepage) out.homepage = homepage;
  const os = readOs(r, block.os, [...path, 'os']);
  if (os === null) {
    r.error(
      'os.invalid',
      [...path, 'os'],
      `no known platform in "${showPath([...path, 'os'])}", so the skill would run everywhere; use ${OS_VALUES.join(', ')}`,
    );
  }
  out.os = os ?? [];
  out.requires = readRequires(r, block.requires, [...path, 'requires'], PULSEBOT_BLOCKS.has(key));
  const primaryEnv = readString(r, block.primaryEnv, [...path, 'primaryEnv']);
  if (primaryEnv && !ENV_NAME_RE.test(primaryEnv)) {
    const why = 'is not an environment variable name (letters, digits, "_"; not starting with a digit)';
    r.error('primaryEnv.invalid', [...path, 'primaryEnv'], `primaryEnv "${primaryEnv.slice(0, 80)}" ${why}`);
  } else if (primaryEnv) {
    out.primaryEnv = primaryEnv;
  }
  const skillKey = readString(r, block.skillKey, [...path, 'skillKey']);
  if (skillKey) out.skillKey = skillKey;
  out.install = readInstallSpecs(r, block.install, [...path, 'install']);
  return out;
}

function readMetadataMap(r: Reporter, value: unknown): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  if (isPlainObject(value)) return value;
  if (typeof value === 'string' && value.trim().startsWith('{')) {
    try {
      const parsed: unknown = JSON5.parse(value);
      if (isPlainObject(parsed)) return parsed;
    } catch (e) {
      r.error(
        'metadata.json5',
        ['metadata'],
        `"metadata" is a string but not a valid JSON5 object (${(e as Error).message}); its requirements and installers are ignored`,
      );
      return null;
    }
  }
  r.error('key.type', ['metadata'], `"metadata" must be a mapping (or a JSON object string), but it is ${describeValue(value)}; it is ignored`);
  return null;
}

function readRequires(r: Reporter, value: unknown, path: KeyPath, pulseBot: boolean): SkillRequires {
  const requires: SkillRequires = { bins: [], anyBins: [], env: [], config: [] };
  if (value === undefined || value === null) return requires;
  if (!isPlainObject(value)) {
    r.error('key.type', path, `"${showPath(path)}" must be a mapping (bins, anyBins, env, config), but it is ${describeValue(value)}; it is ignored`);
    return requires;
  }
  warnUnknownKeys(r, value, path, pulseBot ? [...REQUIRES_KEYS, 'configs'] : REQUIRES_KEYS, 'metadata.key-unknown');
  const list = (key: string, check: (s: string) => boolean, code: string, what: string) => {
    const p = [...path, key];
    return readStringList(r, value[key], p).filter((s) => {
      if (check(s)) return true;
      r.error(code, at(p, value[key], s), `"${s.slice(0, 80)}" in "${showPath(p)}" is not ${what}; it is left out`);
      return false;
    });
  };
  const merge = (main: string, alias: string, check: (s: string) => boolean, code: string, what: string) => {
    const a = list(main, check, code, what);
    const b = list(alias, check, code, what);
    if (value[main] !== undefined && value[alias] !== undefined) {
      r.warn(
        'requires.duplicate-alias',
        [...path, alias],
        `both "${main}" and its alias "${alias}" are set in "${showPath(path)}"; their entries are merged. Keep "${main}" only`,
      );
    }
    return [...new Set([...a, ...b])];
  };
  const binWhat = 'a program name (no "/", no whitespace, at most 128 characters)';
  requires.bins = list('bins', isBinName, 'requires.bin-invalid', binWhat);
  requires.anyBins = merge('anyBins', 'anyOf', isBinName, 'requires.bin-invalid', binWhat);
  requires.env = list(
    'env',
    (s) => ENV_NAME_RE.test(s),
    'requires.env-invalid',
    'an environment variable name (letters, digits, "_"; not starting with a digit)',
  );
  requires.config = list(
    'config',
    (s) => CONFIG_PATH_RE.test(s) && s.length <= 256,
    'requires.config-invalid',
    'a dotted config path such as "browser.enabled"',
  );
  if (pulseBot && value.configs !== undefined) {
    const files = list(
      'configs',
      (s) => CONFIG_FILE_RE.test(s) && s.length <= 1024,
      'requires.configs-invalid',
      'a config file path, absolute or under the home folder (e.g. "~/.myapp/config.yaml")',
    );
    if (files.length) requires.files = [...new Set(files)];
  }
  return requires;
}
