'use client';

import { DENY_GROUPS, type DenyGroup, type GroupMode, groupModeSchema } from '@/lib/policy/types';
import { Select } from '../ui/input';
import { Skeleton } from '../ui/misc';
import { GROUP_MODE_LABEL } from './view';

export interface DenyGroupInfo {
  name: DenyGroup;
  description: string;
  default: GroupMode;
  patterns?: { id: string; pattern: string }[];
}

/** The full mode of every group: the profile's own choice, else the group's built-in default. */
export function groupModes(own: Partial<Record<DenyGroup, GroupMode>>, groups: DenyGroupInfo[]): Record<DenyGroup, GroupMode> {
  const out = {} as Record<DenyGroup, GroupMode>;
  for (const g of DENY_GROUPS) out[g] = own[g] ?? groups.find((x) => x.name === g)?.default ?? 'deny';
  return out;
}

/** Only the groups whose mode differs from their default, so a profile keeps following the defaults elsewhere. */
export function ownModes(modes: Partial<Record<DenyGroup, GroupMode>>, groups: DenyGroupInfo[]): Partial<Record<DenyGroup, GroupMode>> {
  const out: Partial<Record<DenyGroup, GroupMode>> = {};
  for (const g of groups) {
    const m = modes[g.name];
    if (m && m !== g.default) out[g.name] = m;
  }
  return out;
}

const INHERIT = '';

/**
 * The fifteen deny groups, each with its description, its default, and a deny / ask / off choice.
 * With `inherited` (e.g. an agent's overrides over its profile) each group also offers "inherit":
 * no own value, the mode comes from `inherited`, named by `inheritLabel`.
 */
export function DenyGroupsField({
  groups,
  value,
  onChange,
  disabled,
  inherited,
  inheritLabel = 'the profile',
}: {
  groups: DenyGroupInfo[] | undefined;
  value: Partial<Record<DenyGroup, GroupMode>>;
  onChange: (v: Partial<Record<DenyGroup, GroupMode>>) => void;
  disabled?: boolean;
  inherited?: Record<DenyGroup, GroupMode>;
  inheritLabel?: string;
}) {
  if (!groups) return <Skeleton className="h-64 w-full" />;
  const pick = (g: DenyGroup, v: string) => {
    if (v !== INHERIT) return onChange({ ...value, [g]: groupModeSchema.parse(v) });
    const { [g]: _, ...rest } = value;
    onChange(rest);
  };
  return (
    <ul className="grid gap-2 md:grid-cols-2" aria-label="Deny groups">
      {groups.map((g) => {
        const from = inherited?.[g.name];
        const own = value[g.name];
        const mode = own ?? from ?? g.default;
        const id = `deny-group-${g.name}`;
        return (
          <li
            key={g.name}
            data-group={g.name}
            data-mode={mode}
            data-inherits={inherited ? String(own === undefined) : undefined}
            className="grid gap-1 rounded-md border p-3"
          >
            <div className="flex items-center justify-between gap-2">
              <label htmlFor={id} className="font-mono text-sm font-medium">
                {g.name}
              </label>
              <Select
                id={id}
                value={from && own === undefined ? INHERIT : mode}
                disabled={disabled}
                className={from ? 'h-8 w-56' : 'h-8 w-36'}
                aria-describedby={`${id}-hint`}
                onChange={(e) => pick(g.name, e.target.value)}
              >
                {from ? <option value={INHERIT}>Inherit ({GROUP_MODE_LABEL[from]})</option> : null}
                {groupModeSchema.options.map((m) => (
                  <option key={m} value={m}>
                    {GROUP_MODE_LABEL[m]}
                    {m === g.default ? ' (default)' : ''}
                  </option>
                ))}
              </Select>
            </div>
            <p id={`${id}-hint`} className="text-xs text-muted-foreground">
              {g.description}
              {from ? (
                own !== undefined ? (
                  <span className="ml-1 font-medium text-foreground">
                    Overrides {inheritLabel} ({GROUP_MODE_LABEL[from]}).
                  </span>
                ) : null
              ) : mode !== g.default ? (
                <span className="ml-1 font-medium text-foreground">Changed from the default ({GROUP_MODE_LABEL[g.default]}).</span>
              ) : null}
            </p>
            {g.patterns?.length ? (
              <details className="text-xs">
                <summary className="cursor-pointer text-muted-foreground hover:text-foreground">What it matches ({g.patterns.length})</summary>
                <ul className="mt-1 grid gap-0.5">
                  {g.patterns.map((p) => (
                    <li key={p.id} className="break-all font-mono">
                      <span className="text-muted-foreground">{p.id}</span> {p.pattern}
                    </li>
                  ))}
                </ul>
              </details>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
