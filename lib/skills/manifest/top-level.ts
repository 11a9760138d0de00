import type { SkillManifest } from '../types';
import { readHomepage } from './fields';
import { describeValue, type Reporter, readBool, readString, readStringList, warnUnknownKeys } from './report';

/** agentskills.io name rule: lowercase ASCII letters, digits, inner hyphens. */
export const SKILL_NAME_RE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
export const MAX_SKILL_NAME = 64;
export const MAX_DESCRIPTION = 1024;

/** Top-level keys; `deps`/`exclude_deps` are validated by lib/runtime/deps. */
export const KNOWN_TOP_LEVEL_KEYS = [
  'name',
  'description',
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
  'homepage',
  'user-invocable',
  'disable-model-invocation',
  'command-dispatch',
  'command-tool',
  'command-arg-mode',
  'deps',
  'exclude_deps',
] as const;

export type TopLevelFields = Pick<
  SkillManifest,
  | 'name'
  | 'description'
  | 'license'
  | 'compatibility'
  | 'allowedTools'
  | 'userInvocable'
  | 'disableModelInvocation'
  | 'commandDispatch'
  | 'commandTool'
  | 'commandArgMode'
  | 'homepage'
>;

/** The defaults of every top-level field, used as-is when the frontmatter is unusable. */
export function defaultTopLevel(dirName: string | undefined): TopLevelFields {
  return { name: dirName ?? '', description: '', allowedTools: [], userInvocable: true, disableModelInvocation: false, commandArgMode: 'raw' };
}

/** Reads and checks the top-level keys. `metadata` is read by readMetadata. */
export function readTopLevel(r: Reporter, data: Record<string, unknown>, dirName: string | undefined): TopLevelFields {
  const out = defaultTopLevel(dirName);
  warnUnknownKeys(r, data, [], KNOWN_TOP_LEVEL_KEYS, 'key.unknown');

  const name = readName(r, data.name, dirName);
  if (name !== undefined) out.name = name;
  out.description = readDescription(r, data.description);

  const license = readString(r, data.license, ['license']);
  if (license) out.license = license;
  const compatibility = readString(r, data.compatibility, ['compatibility']);
  if (compatibility) out.compatibility = compatibility;
  out.allowedTools = readStringList(r, data['allowed-tools'], ['allowed-tools'], 'space');
  const homepage = readHomepage(r, data.homepage, ['homepage']);
  if (homepage) out.homepage = homepage;
  out.userInvocable = readBool(r, data['user-invocable'], ['user-invocable'], true);
  out.disableModelInvocation = readBool(r, data['disable-model-invocation'], ['disable-model-invocation'], false);

  const dispatch = readString(r, data['command-dispatch'], ['command-dispatch']);
  if (dispatch === 'tool') out.commandDispatch = 'tool';
  else if (dispatch) r.error('command-dispatch.invalid', ['command-dispatch'], `"command-dispatch" must be "tool" (the only dispatch mode), not "${dispatch}"`);
  const tool = readString(r, data['command-tool'], ['command-tool']);
  if (tool) out.commandTool = tool;
  if (out.commandDispatch === 'tool' && !tool) {
    r.error(
      'command-tool.missing',
      ['command-dispatch'],
      '"command-dispatch: tool" needs "command-tool: <tool name>", the tool that receives the slash command',
    );
  } else if (tool && out.commandDispatch !== 'tool') {
    r.warn('command-tool.unused', ['command-tool'], '"command-tool" is ignored without "command-dispatch: tool"');
  }
  const argMode = readString(r, data['command-arg-mode'], ['command-arg-mode']);
  if (argMode && argMode !== 'raw') {
    r.warn('command-arg-mode.invalid', ['command-arg-mode'], `"command-arg-mode" must be "raw" (the only mode), not "${argMode}"; "raw" is used`);
  }
  return out;
}

/** The valid frontmatter name, or undefined (then the folder name stands in). */
function readName(r: Reporter, value: unknown, dirName: string | undefined): string | undefined {
  const fallback = dirName ? `; the folder name "${dirName}" is used instead` : '';
  if (value === undefined || value === null || (typeof value === 'string' && !value.trim())) {
    r.error('name.missing', ['name'], `"name" is required: 1–64 lowercase letters, digits and hyphens${fallback}`);
    return undefined;
  }
  if (typeof value !== 'string') {
    r.error('name.invalid', ['name'], `"name" must be a string, but it is ${describeValue(value)}${fallback}`);
    return undefined;
  }
  const name = value.trim();
  const problem =
    name.length > MAX_SKILL_NAME
      ? `is ${name.length} characters long; the limit is ${MAX_SKILL_NAME}`
      : /[A-Z]/.test(name) && SKILL_NAME_RE.test(name.toLowerCase())
        ? `has uppercase letters; write "${name.toLowerCase()}"`
        : /^-|-$/.test(name)
          ? 'starts or ends with a hyphen'
          : !SKILL_NAME_RE.test(name)
            ? 'may contain only lowercase ASCII letters, digits and hyphens (e.g. "pdf-tools")'
            : undefined;
  if (problem) {
    r.error('name.invalid', ['name'], `name "${name.slice(0, 80)}" ${problem}${fallback}`);
    return undefined;
  }
  if (dirName !== undefined && dirName !== name) {
    r.warn('name.dir-mismatch', ['name'], `name "${name}" differs from its folder "${dirName}"; rename one so they match (the skill is known as "${name}")`);
  }
  return name;
}

function readDescription(r: Reporter, value: unknown): string {
  if (value !== undefined && value !== null && typeof value !== 'string') {
    r.error('description.invalid', ['description'], `"description" must be a string, but it is ${describeValue(value)}; quote it`);
    return '';
  }
  const description = (value ?? '').trim();
  if (!description) {
    r.error('description.missing', ['description'], '"description" is required: say what the skill does and when to use it (1–1024 characters)');
  } else if ([...description].length > MAX_DESCRIPTION) {
    // A soft limit of the format: published skills break it (Anthropic's claude-api), and nothing stops
    // them from working. Agents are shown the first MAX_DESCRIPTION characters (agentDescription).
    r.warn(
      'description.too-long',
      ['description'],
      `"description" is ${[...description].length} characters long; the limit is ${MAX_DESCRIPTION}. Agents see only the first ${MAX_DESCRIPTION}; move details into the body`,
    );
  }
  return description;
}

/** The description as agents are shown it: at most MAX_DESCRIPTION characters, ending in "…" when cut. */
export function agentDescription(description: string): { text: string; truncated: boolean } {
  const chars = [...description];
  if (chars.length <= MAX_DESCRIPTION) return { text: description, truncated: false };
  return {
    text: `${chars
      .slice(0, MAX_DESCRIPTION - 1)
      .join('')
      .trimEnd()}…`,
    truncated: true,
  };
}
