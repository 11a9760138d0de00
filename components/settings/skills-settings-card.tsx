'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { toast } from 'sonner';
import { updateSkillsSettingsAction } from '@/app/(console)/settings/actions';
import { METADATA_FLAVOURS, type SkillsSettings } from '@/lib/settings/skills-settings';
import { api } from '../api';
import { listUrl, skillListKey, skillsSettingsKey } from '../skills/queries';
import { fromForm, LABELS, type SettingsKey, type SkillsSettingsForm, toForm } from '../skills/settings-form';
import type { SkillList } from '../skills/view';
import { Button } from '../ui/button';
import { CheckField, Field, Input } from '../ui/input';
import { Textarea } from '../ui/textarea';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { SettingsSaveBar, saveBlockedReason } from '../forms/save-bar';
import { SettingsFormCard, SettingsFormNotes } from '../forms/settings-form-card';
import { ImportPolicyFields } from './skills-import-policy-fields';
import { useSettingsDraft } from '../forms/use-settings-draft';

const ALL = { status: 'all', q: '', source: '' };

const Section = ({ title, children }: { title: string; children: React.ReactNode }) => (
  <fieldset className="grid gap-4 md:grid-cols-2">
    <legend className="mb-3 text-sm font-semibold">{title}</legend>
    {children}
  </fieldset>
);

/** Settings → Skills: roots, discovery limits, watcher, import policy (uploads, URLs, git, ClawHub) and the gateway config gating reads. */
export function SkillsSettingsCard() {
  const qc = useQueryClient();
  const can = useCan('skills.write');
  const q = useQuery({ queryKey: skillsSettingsKey, queryFn: ({ signal }) => api<SkillsSettings>('/api/v1/settings/skills', { signal }) });
  const catalog = useQuery({ queryKey: skillListKey(ALL), queryFn: ({ signal }) => api<SkillList>(listUrl(ALL), { signal }), staleTime: 60_000 });
  const stored = q.data;
  const draft = useSettingsDraft(stored, toForm);
  const { form, set } = draft;
  const { errors: localErrors, patch } = useMemo(() => (form && stored ? fromForm(form, stored) : { errors: {}, patch: {} }), [form, stored]);
  const errors: Record<string, string> = { ...draft.serverIssues, ...localErrors };
  const changed = Object.keys(patch) as SettingsKey[];
  const valid = !Object.keys(localErrors).length;

  const save = useOperation(updateSkillsSettingsAction, {
    input: (body: Partial<SkillsSettings>) => ({ body }),
    onSuccess: (next, body) => {
      qc.setQueryData(skillsSettingsKey, next);
      draft.reset(next);
      void qc.invalidateQueries({ queryKey: ['skills'] });
      toast.success('Skills settings saved', {
        description: `Changed: ${Object.keys(body)
          .map((k) => LABELS[k as SettingsKey] ?? k)
          .join(', ')}. The catalog is read again.`,
      });
    },
    onError: draft.onSaveError,
  });

  const rootPath = (kind: string) => catalog.data?.roots.find((r) => r.kind === kind)?.path;
  const disabled = !can.allowed || save.isPending;
  const blocked = saveBlockedReason(can, valid, changed.length);
  const text = (k: keyof SkillsSettingsForm, id: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <Input
      id={id}
      value={form![k] as string}
      onChange={(e) => set(k, e.target.value as never)}
      autoComplete="off"
      spellCheck={false}
      aria-invalid={!!errors[k]}
      {...props}
    />
  );
  const list = (k: keyof SkillsSettingsForm, id: string, placeholder: string) => (
    <Textarea
      id={id}
      value={form![k] as string}
      onChange={(e) => set(k, e.target.value as never)}
      rows={3}
      spellCheck={false}
      className="font-mono text-xs"
      aria-invalid={!!errors[k]}
      placeholder={placeholder}
    />
  );

  return (
    <SettingsFormCard
      title="Skills"
      description="Where skills are found, how the catalog watches them, what may be imported from where, and the gateway config that requirements are checked against."
      query={q}
      value={stored && form ? { stored, form } : null}
      loadingLabel="Loading skills settings"
    >
      {({ stored, form }) => (
        <form
          noValidate
          aria-label="Skills settings"
          data-testid="skills-settings-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!blocked) save.mutate(patch);
          }}
        >
          <fieldset disabled={disabled} className="grid gap-8">
            <SettingsFormNotes can={can} saveError={save.error} />
            <Section title="Roots">
              <Field
                label="Workspace folder"
                htmlFor="sk-workspace"
                error={errors.workspaceDir}
                hint={`Its skills/ and .agents/skills are roots 1 and 2. Empty: the default${rootPath('workspace') ? ` (${rootPath('workspace')!.replace(/\/skills$/, '')})` : ''}.`}
              >
                {text('workspaceDir', 'sk-workspace', { placeholder: 'e.g. /srv/agent-workspace', className: 'font-mono' })}
              </Field>
              <Field
                label="Personal skills folder"
                htmlFor="sk-personal"
                error={errors.personalDir}
                hint={`Root 3. Empty: ${rootPath('personal') ?? '~/.agents/skills'}.`}
              >
                {text('personalDir', 'sk-personal', { className: 'font-mono' })}
              </Field>
              <Field
                label="Bundled skills folder"
                htmlFor="sk-bundled"
                error={errors.bundledDir}
                hint={`Root 5. Empty: ${rootPath('bundled') ?? 'under the data dir'}.`}
              >
                {text('bundledDir', 'sk-bundled', { className: 'font-mono' })}
              </Field>
              <Field label="Extra folders" htmlFor="sk-extra" error={errors.extraDirs} hint="Lowest precedence, in this order; absolute paths, one per line.">
                {list('extraDirs', 'sk-extra', 'e.g. /opt/team-skills')}
              </Field>
              <Field
                label="Allowed symlink targets"
                htmlFor="sk-symlinks"
                error={errors.allowSymlinkTargets}
                hint="Folders a workspace, project or extra skill may link into; links elsewhere are refused with a warning."
              >
                {list('allowSymlinkTargets', 'sk-symlinks', 'e.g. /srv/shared-skills')}
              </Field>
              <div className="grid content-start gap-2">
                <CheckField
                  id="sk-all-bundled"
                  label="Allow every bundled skill"
                  hint="Off: only the bundled skills listed below are offered to agents."
                  checked={form.allowAllBundled}
                  onChange={(e) => set('allowAllBundled', e.target.checked)}
                />
                {!form.allowAllBundled ? (
                  <Field label="Allowed bundled skills" htmlFor="sk-bundled-allow" error={errors.allowBundled} hint="Skill keys or names, one per line.">
                    {list('allowBundled', 'sk-bundled-allow', 'e.g. weather')}
                  </Field>
                ) : null}
              </div>
            </Section>
            <Section title="Discovery and watching">
              <Field
                label="Skills read per root"
                htmlFor="sk-max-cand"
                error={errors.maxCandidatesPerRoot}
                hint="Folders past this are ignored with a warning (1 to 10,000)."
              >
                {text('maxCandidatesPerRoot', 'sk-max-cand', { inputMode: 'numeric', className: 'w-40' })}
              </Field>
              <Field
                label="Largest SKILL.md (bytes)"
                htmlFor="sk-max-bytes"
                error={errors.maxSkillFileBytes}
                hint="Larger files make the skill invalid (1,024 to 1,000,000)."
              >
                {text('maxSkillFileBytes', 'sk-max-bytes', { inputMode: 'numeric', className: 'w-40' })}
              </Field>
              <CheckField
                id="sk-watch"
                label="Watch skill folders"
                hint="Pick up added, changed and removed skills without a restart."
                checked={form.watch}
                onChange={(e) => set('watch', e.target.checked)}
              />
              <Field
                label="Watch delay (ms)"
                htmlFor="sk-debounce"
                error={errors.watchDebounceMs}
                hint="Quiet time before a change is picked up (50 to 10,000)."
              >
                {text('watchDebounceMs', 'sk-debounce', { inputMode: 'numeric', className: 'w-40', disabled: !form.watch })}
              </Field>
            </Section>
            <Section title="Imports">
              <Field
                label="Upload limit (MiB)"
                htmlFor="sk-upload"
                error={errors.uploadMaxMb}
                hint="Largest archive accepted by upload, URL or ClawHub (1 to 512)."
              >
                {text('uploadMaxMb', 'sk-upload', { inputMode: 'numeric', className: 'w-40' })}
              </Field>
              <Field
                label="Update check interval (hours)"
                htmlFor="sk-update-hours"
                error={errors.updateCheckHours}
                hint="How often imported skills are checked against their sources; 0 turns periodic checks off. Policies are set on the Skills page."
              >
                {text('updateCheckHours', 'sk-update-hours', { inputMode: 'numeric', className: 'w-40' })}
              </Field>
              <Field label="ClawHub base URL" htmlFor="sk-clawhub" error={errors.clawhubBaseUrl} hint="The registry searched and installed from.">
                {text('clawhubBaseUrl', 'sk-clawhub', { className: 'font-mono' })}
              </Field>
              <Field
                label="URL host allowlist"
                htmlFor="sk-url-allow"
                error={errors.urlHostAllowlist}
                hint="Only these hosts may be imported from by URL; empty allows any public host. One per line."
              >
                {list('urlHostAllowlist', 'sk-url-allow', 'e.g. downloads.example.com')}
              </Field>
              <Field
                label="Allowed private hosts"
                htmlFor="sk-url-private"
                error={errors.urlPrivateHosts}
                hint="Hosts allowed although they resolve to loopback or private addresses (an internal mirror). One per line."
              >
                {list('urlPrivateHosts', 'sk-url-private', 'e.g. mirror.internal:8080')}
              </Field>
              <CheckField
                id="sk-git-local"
                label="Allow local git repositories"
                hint="Git imports from local paths and file:// URLs (off by default: they read the server’s disk)."
                checked={form.gitAllowLocal}
                onChange={(e) => set('gitAllowLocal', e.target.checked)}
              />
            </Section>
            <Section title="Import policy">
              <ImportPolicyFields form={form} set={set} errors={errors} />
            </Section>
            <Section title="Gateway config">
              <div className="grid content-start gap-2 md:col-span-2">
                <Field
                  label="Metadata blocks read"
                  htmlFor="sk-metadata-keys"
                  error={errors.metadataKeys}
                  hint={`SKILL.md metadata blocks whose requirements and installers are read, in order; the first present wins. Known: ${METADATA_FLAVOURS.all.keys.join(', ')}.`}
                >
                  {text('metadataKeys', 'sk-metadata-keys', { className: 'font-mono' })}
                </Field>
                <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                  <span>As a gateway flavour reads them:</span>
                  {Object.entries(METADATA_FLAVOURS).map(([id, f]) => (
                    <Button
                      key={id}
                      type="button"
                      size="sm"
                      variant="outline"
                      data-testid={`sk-metadata-flavour-${id}`}
                      title={f.keys.join(', ')}
                      onClick={() => set('metadataKeys', f.keys.join(', '))}
                    >
                      {f.label}
                    </Button>
                  ))}
                </div>
              </div>
              <div className="md:col-span-2">
                <Field
                  label="Config (JSON)"
                  htmlFor="sk-config"
                  error={errors.config}
                  hint='What requires.config paths are checked against, e.g. {"browser": {"enabled": true}}.'
                >
                  <Textarea
                    id="sk-config"
                    value={form.config}
                    onChange={(e) => set('config', e.target.value)}
                    rows={5}
                    spellCheck={false}
                    className="font-mono text-xs"
                    aria-invalid={!!errors.config}
                  />
                </Field>
              </div>
            </Section>
          </fieldset>
          <SettingsSaveBar
            valid={valid}
            changed={changed.map((k) => LABELS[k])}
            disabled={disabled}
            discardDisabled={!changed.length && valid}
            onDiscard={() => draft.reset(stored)}
            blocked={blocked}
            saving={save.isPending}
          />
        </form>
      )}
    </SettingsFormCard>
  );
}
