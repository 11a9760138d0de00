import type { MetadataKey, ParsedSkill, SkillManifest } from '../types';
import { defaultMetadata, readMetadata } from './metadata';
import { Reporter } from './report';
import { readSkillSource } from './source';
import { defaultTopLevel, readTopLevel } from './top-level';

export { ENV_NAME_RE, isBinName, OS_VALUES } from './fields';
export { BREW_FORMULA_RE, GO_MODULE_RE, githubReleaseSpec, INSTALL_KINDS, UV_PACKAGE_RE } from './install';
export { METADATA_KEYS } from './metadata';
export { agentDescription, KNOWN_TOP_LEVEL_KEYS, MAX_DESCRIPTION, MAX_SKILL_NAME, SKILL_NAME_RE } from './top-level';

/** OpenClaw `maxSkillFileBytes`. */
export const MAX_SKILL_MD_BYTES = 256_000;
/** Past this the frontmatter is not parsed at all (the size error already makes the skill invalid). */
const MAX_PARSED_CHARS = 4 * MAX_SKILL_MD_BYTES;

export interface ParseSkillMdOptions {
  /** The skill's folder name: the fallback name, and compared with `name` (warning on mismatch). */
  dirName?: string;
  /** Path of SKILL.md relative to the skill folder, used in diagnostics; default "SKILL.md". */
  file?: string;
  /** The file's size on disk; computed from `text` (UTF-8) when absent. */
  sizeBytes?: number;
  /** The metadata blocks read, in order (the skills setting `metadataKeys`); default METADATA_KEYS. */
  metadataKeys?: readonly MetadataKey[];
}

/**
 * Parses and validates SKILL.md. Never throws: every problem is a diagnostic
 * with its line, and the manifest is filled best effort (name falls back to the folder name).
 */
export function parseSkillMd(text: string, opts: ParseSkillMdOptions = {}): ParsedSkill {
  const r = new Reporter(opts.file ?? 'SKILL.md');
  let manifest: SkillManifest;
  try {
    manifest = build(text, opts, r);
  } catch (e) {
    // A bug here must not hide the skill: report it like any other problem.
    r.error('internal', undefined, `SKILL.md could not be validated: ${(e as Error).message}`);
    manifest = assemble(defaultTopLevel(opts.dirName), defaultMetadata(), '', 1);
  }
  const diagnostics = r.diagnostics;
  return { manifest, diagnostics, valid: !diagnostics.some((d) => d.severity === 'error') };
}

function build(text: string, opts: ParseSkillMdOptions, r: Reporter): SkillManifest {
  const size = opts.sizeBytes ?? Buffer.byteLength(text, 'utf8');
  if (size > MAX_SKILL_MD_BYTES) {
    const limit = MAX_SKILL_MD_BYTES.toLocaleString('en-US');
    r.error(
      'file.too-large',
      undefined,
      `SKILL.md is ${size.toLocaleString('en-US')} bytes; the limit is ${limit}. Move reference material into references/ files`,
    );
    if (text.length > MAX_PARSED_CHARS) return assemble(defaultTopLevel(opts.dirName), defaultMetadata(), '', 1);
  }
  const source = readSkillSource(text, r);
  if (!source.data) return assemble(defaultTopLevel(opts.dirName), defaultMetadata(), source.body, source.bodyLine);
  const top = readTopLevel(r, source.data, opts.dirName);
  const meta = readMetadata(r, source.data.metadata, opts.metadataKeys);
  return assemble(top, meta, source.body, source.bodyLine);
}

function assemble(top: ReturnType<typeof defaultTopLevel>, meta: ReturnType<typeof defaultMetadata>, body: string, bodyLine: number): SkillManifest {
  const { homepage: blockHomepage, skillKey, ...block } = meta;
  const homepage = top.homepage ?? blockHomepage;
  return { ...top, ...block, ...(homepage ? { homepage } : {}), skillKey: skillKey ?? top.name, body, bodyLine };
}
