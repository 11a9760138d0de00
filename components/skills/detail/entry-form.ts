import { errorMessage } from '@/components/error-message';
import { type SkillEntryInput, skillEntryInput } from '@/lib/skills/service/schemas';
import type { SkillEntryView } from '../view';

export interface EnvRow {
  /** Stable React key. */
  key: string;
  name: string;
  value: string;
  /** A value is stored on the server (shown masked; empty value keeps it). */
  stored: boolean;
  /** A stored value the user asked to remove. */
  remove: boolean;
}

export interface EntryForm {
  enabled: boolean;
  env: EnvRow[];
  apiKey: string;
  removeApiKey: boolean;
  config: string;
}

let seq = 0;
export const newRow = (name = ''): EnvRow => ({ key: `r${++seq}`, name, value: '', stored: false, remove: false });

export function toForm(entry: SkillEntryView): EntryForm {
  return {
    enabled: entry.enabled ?? true,
    env: Object.keys(entry.env)
      .sort()
      .map((name) => ({ ...newRow(name), stored: true })),
    apiKey: '',
    removeApiKey: false,
    config: JSON.stringify(entry.config ?? {}, null, 2),
  };
}

/** The PUT body for the form, and problems by field ("enabled", "env.<row key>", "apiKey", "config"). */
export function build(f: EntryForm, entry: SkillEntryView): { input: SkillEntryInput | null; errors: Record<string, string>; changed: string[] } {
  const errors: Record<string, string> = {};
  const changed: string[] = [];
  const input: SkillEntryInput = { skillKey: entry.skillKey };
  if (f.enabled !== (entry.enabled ?? true)) {
    input.enabled = f.enabled;
    changed.push('enabled');
  }
  const env: Record<string, string> = {};
  const seen = new Map<string, string>();
  for (const r of f.env) {
    const name = r.name.trim();
    if (!name && !r.value) continue;
    if (!name) {
      errors[`env.${r.key}`] = 'Give the variable a name';
      continue;
    }
    if (seen.has(name)) errors[`env.${r.key}`] = `${name} is listed twice`;
    seen.set(name, r.key);
    if (r.stored && r.remove) env[name] = '';
    else if (r.value) env[name] = r.value;
    else if (!r.stored) errors[`env.${r.key}`] ??= 'Enter a value (or remove the row)';
  }
  if (Object.keys(env).length) {
    input.env = env;
    changed.push('environment');
  }
  if (f.removeApiKey) input.apiKey = '';
  else if (f.apiKey) input.apiKey = f.apiKey;
  if (input.apiKey !== undefined) changed.push('API key');
  let config: unknown;
  try {
    config = f.config.trim() ? JSON.parse(f.config) : {};
    if (!config || typeof config !== 'object' || Array.isArray(config)) errors.config = 'The config must be a JSON object, e.g. {"region": "eu"}';
  } catch (e) {
    errors.config = `Not valid JSON: ${errorMessage(e)}`;
  }
  if (!errors.config && JSON.stringify(config) !== JSON.stringify(entry.config ?? {})) {
    input.config = config as Record<string, unknown>;
    changed.push('config');
  }
  const parsed = skillEntryInput.safeParse(input);
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      const [head, name] = i.path.map(String);
      const field = head === 'env' && name ? `env.${seen.get(name) ?? name}` : head === 'env' ? 'env' : head;
      errors[field] ??= i.message;
    }
  }
  return { input: Object.keys(errors).length ? null : input, errors, changed };
}
