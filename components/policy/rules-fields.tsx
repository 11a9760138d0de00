'use client';

import { type Control, Controller, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { type ProfileRules, profileRulesSchema } from '@/lib/policy/types';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { CheckField, Field, Input, Select } from '../ui/input';
import { type DenyGroupInfo, DenyGroupsField } from './deny-groups-field';
import { ListEditor } from './list-editor';

export interface ProfileFormValues {
  name: string;
  description: string;
  rules: ProfileRules;
}

const shape = profileRulesSchema.shape;
const commandEntry = shape.allowedCommands.unwrap().element;
const pathEntry = shape.forbiddenPaths.unwrap().element;
/** The choices of the inlineCode setting, labelled; the keys are the schema's own. */
export const INLINE_CODE: Record<ProfileRules['inlineCode'], string> = {
  allow: 'Run it (the deny groups still judge the code)',
  approval: 'Ask an admin before it runs',
  deny: 'Refuse it: put the code in a script file',
};
const inlineCodeOptions = shape.inlineCode.unwrap().options;
const WRITE_THEN_RUN: Record<ProfileRules['writeThenRun'], string> = {
  approval: 'Ask an admin before it runs',
  scan: 'Run it when the skill scanner finds nothing',
  off: 'Treat it like any other file',
};

const SWITCHES: { key: 'blockHighRisk' | 'approvalForMedium' | 'preChecks' | 'blockInterpreterArgs'; label: string; hint: string }[] = [
  { key: 'blockHighRisk', label: 'Block high-risk commands', hint: 'High-risk commands (rm, curl, ssh, dd, …) are refused unless named in the list above.' },
  {
    key: 'approvalForMedium',
    label: 'Ask before medium-risk commands',
    hint: 'Mutating git and npm verbs, named package installs, touch, mkdir, mv, cp, ln and writes by redirect or tee wait for an admin.',
  },
  {
    key: 'preChecks',
    label: 'Pre-checks',
    hint: 'Refuse command substitution, unknown variables, backgrounding with &, and redirects or tee beyond ordinary files (writes in the workspace, /tmp, /var/tmp and the home only; never start-up, config or credential files).',
  },
  {
    key: 'blockInterpreterArgs',
    label: 'Block inline interpreter and tool arguments',
    hint: 'find -exec, git -c/config/alias, npm exec, launchers, code read from stdin, installs the engine cannot vet: code a scan cannot see. Inline code follows the setting below.',
  },
];

function listMode(list: string[]): string {
  if (list.includes('*')) return list.length > 1 ? 'Any command; the named high-risk ones too.' : 'Any command (high-risk ones follow the switch below).';
  return list.length ? `Strict: only these ${list.length} commands, every segment must match.` : 'Empty: no command matches the list.';
}

/** The settings of a profile, as cards: commands, deny groups, paths, write-then-run. */
export function RulesFields({
  control,
  register,
  errors,
  groups,
  disabled,
  allowed,
}: {
  control: Control<ProfileFormValues>;
  register: UseFormRegister<ProfileFormValues>;
  errors: FieldErrors<ProfileFormValues>;
  groups: DenyGroupInfo[] | undefined;
  disabled: boolean;
  allowed: string[];
}) {
  const e = errors.rules;
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>Commands</CardTitle>
          <CardDescription>
            Which commands may run. <code className="font-mono">*</code> allows any; path-like entries match exactly, plain names match the basename.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <Controller
            control={control}
            name="rules.allowedCommands"
            render={({ field }) => (
              <ListEditor
                id="rules-allowed"
                label="Allowed commands"
                values={field.value}
                onChange={field.onChange}
                entry={commandEntry}
                placeholder="git, ls, /usr/bin/python3, *"
                disabled={disabled}
                max={1000}
                error={e?.allowedCommands?.message ?? e?.allowedCommands?.root?.message}
              />
            )}
          />
          <p className="text-xs text-muted-foreground" data-slot="allowlist-mode">
            {listMode(allowed)}
          </p>
          <div className="grid gap-3 sm:grid-cols-2">
            {SWITCHES.map((s) => (
              <CheckField key={s.key} id={`rules-${s.key}`} label={s.label} hint={s.hint} disabled={disabled} {...register(`rules.${s.key}`)} />
            ))}
          </div>
          <Field
            label="Code written on the command line"
            htmlFor="rules-inlineCode"
            hint="python3 -c '…', python3 -m module, node -e, perl -e, ruby -e. Code the engine cannot read (piped in, on stdin) is refused whenever interpreter arguments are blocked."
            error={e?.inlineCode?.message}
          >
            <Select id="rules-inlineCode" disabled={disabled} className="sm:w-96" {...register('rules.inlineCode')}>
              {inlineCodeOptions.map((k) => (
                <option key={k} value={k}>
                  {INLINE_CODE[k]}
                </option>
              ))}
            </Select>
          </Field>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Deny groups</CardTitle>
          <CardDescription>Patterns matched against the parsed command names and arguments; each group denies, asks an admin, or is off.</CardDescription>
        </CardHeader>
        <CardContent>
          <Controller
            control={control}
            name="rules.denyGroups"
            render={({ field }) => <DenyGroupsField groups={groups} value={field.value} onChange={field.onChange} disabled={disabled} />}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Paths</CardTitle>
          <CardDescription>Path arguments are normalised (.. resolved against the working directory) before they are compared.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <Field label="Forbidden paths" htmlFor="rules-forbidden" hint="A command naming one of these, or anything under it, is denied.">
            <Controller
              control={control}
              name="rules.forbiddenPaths"
              render={({ field }) => (
                <ListEditor
                  id="rules-forbidden"
                  label="Forbidden paths"
                  values={field.value}
                  onChange={field.onChange}
                  entry={pathEntry}
                  placeholder="/etc, ~/.ssh"
                  disabled={disabled}
                  max={200}
                  error={e?.forbiddenPaths?.message}
                />
              )}
            />
          </Field>
          <div className="grid gap-3 sm:grid-cols-2">
            <CheckField
              id="rules-workspaceOnly"
              label="Workspace only"
              hint="Every path argument must stay under the workspace root."
              disabled={disabled}
              {...register('rules.workspaceOnly')}
            />
            <Field label="Workspace root" htmlFor="rules-workspaceRoot" error={e?.workspaceRoot?.message}>
              <Input
                id="rules-workspaceRoot"
                className="font-mono"
                disabled={disabled}
                aria-invalid={!!e?.workspaceRoot}
                {...register('rules.workspaceRoot')}
              />
            </Field>
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Write-then-run</CardTitle>
          <CardDescription>
            A file the agent&apos;s commands wrote or changed (anywhere, by what changed on disk) is inline code by another name, also when it runs by a bare
            name from a PATH folder.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Field label="When the agent runs a file its commands wrote" htmlFor="rules-writeThenRun" error={e?.writeThenRun?.message}>
            <Select id="rules-writeThenRun" disabled={disabled} className="sm:w-96" {...register('rules.writeThenRun')}>
              {Object.entries(WRITE_THEN_RUN).map(([k, v]) => (
                <option key={k} value={k}>
                  {v}
                </option>
              ))}
            </Select>
          </Field>
        </CardContent>
      </Card>
    </>
  );
}
