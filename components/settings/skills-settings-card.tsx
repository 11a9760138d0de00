'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { updateSkillsSettingsAction } from '@/app/(console)/settings/actions';
import { skillsApi } from '@/lib/api/contracts/skills';
import { METADATA_FLAVOURS, type SkillsSettings } from '@/lib/settings/skills-settings';
import { get } from '../api';
import { DraftSettingsCard } from '../forms/draft-settings-card';
import { ListField, NumberField, TextField } from '../forms/fields';
import { useSettingsDraft } from '../forms/use-settings-draft';
import { useSettingsSave } from '../forms/use-settings-save';
import { listSkills, skillListKey, skillsSettingsKey } from '../skills/queries';
import { fromForm, LABELS, type SettingsKey, toForm } from '../skills/settings-form';
import { Button } from '../ui/button';
import { CheckField } from '../ui/input';
import { useCan } from '../viewer';
import { ImportPolicyFields } from './skills-import-policy-fields';

const ALL = { status: 'all', q: '', source: '' };

const Section = ({ title, children }: { title: string; children: React.ReactNode }) => (
  <fieldset className="grid gap-4 md:grid-cols-2">
    <legend className="mb-3 text-sm font-semibold">{title}</legend>
    {children}
  </fieldset>
);

/** Settings → Skills: roots, discovery limits, watcher, import policy (uploads, URLs, git, ClawHub) and the gateway config gating reads. */
export function SkillsSettingsCard() {
  const can = useCan('skills.write');
  const q = useQuery({ queryKey: skillsSettingsKey, queryFn: ({ signal }) => get(skillsApi.skillsSettings, { signal }) });
  const catalog = useQuery({ queryKey: skillListKey(ALL), queryFn: ({ signal }) => listSkills(ALL, signal), staleTime: 60_000 });
  const stored = q.data;
  const draft = useSettingsDraft(stored, toForm);
  const { form, set } = draft;
  const { errors: localErrors, patch } = useMemo(() => (form && stored ? fromForm(form, stored) : { errors: {}, patch: {} }), [form, stored]);
  const errors: Record<string, string> = { ...draft.serverIssues, ...localErrors };
  const changed = Object.keys(patch) as SettingsKey[];
  const valid = !Object.keys(localErrors).length;

  const save = useSettingsSave(updateSkillsSettingsAction, {
    input: (body: Partial<SkillsSettings>) => ({ body }),
    queryKey: skillsSettingsKey,
    reset: draft.reset,
    onError: draft.onSaveError,
    invalidate: ['skills'],
    saved: { what: 'Skills settings', labels: LABELS, after: 'The catalog is read again.' },
  });

  const rootPath = (kind: string) => catalog.data?.roots.find((r) => r.kind === kind)?.path;

  return (
    <DraftSettingsCard
      title="Skills"
      description="Where skills are found, how the catalog watches them, what may be imported from where, and the gateway config that requirements are checked against."
      query={q}
      loadingLabel="Loading skills settings"
      stored={stored}
      draft={draft}
      errors={errors}
      label="Skills settings"
      testId="skills-settings-form"
      can={can}
      save={save}
      valid={valid}
      changed={changed.map((k) => LABELS[k])}
      onSave={() => save.mutate(patch)}
      className="gap-8"
    >
      {(f, { form }) => (
        <>
          <Section title="Roots">
            <TextField
              label="Workspace folder"
              id="sk-workspace"
              hint={`Its skills/ and .agents/skills are roots 1 and 2. Empty: the default${rootPath('workspace') ? ` (${rootPath('workspace')!.replace(/\/skills$/, '')})` : ''}.`}
              placeholder="e.g. /srv/agent-workspace"
              className="font-mono"
              {...f.text('workspaceDir')}
            />
            <TextField
              label="Personal skills folder"
              id="sk-personal"
              hint={`Root 3. Empty: ${rootPath('personal') ?? '~/.agents/skills'}.`}
              className="font-mono"
              {...f.text('personalDir')}
            />
            <TextField
              label="Bundled skills folder"
              id="sk-bundled"
              hint={`Root 5. Empty: ${rootPath('bundled') ?? 'under the data dir'}.`}
              className="font-mono"
              {...f.text('bundledDir')}
            />
            <ListField
              label="Extra folders"
              id="sk-extra"
              hint="Lowest precedence, in this order; absolute paths, one per line."
              placeholder="e.g. /opt/team-skills"
              {...f.text('extraDirs')}
            />
            <ListField
              label="Allowed symlink targets"
              id="sk-symlinks"
              hint="Folders a workspace, project or extra skill may link into; links elsewhere are refused with a warning."
              placeholder="e.g. /srv/shared-skills"
              {...f.text('allowSymlinkTargets')}
            />
            <div className="grid content-start gap-2">
              <CheckField
                id="sk-all-bundled"
                label="Allow every bundled skill"
                hint="Off: only the bundled skills listed below are offered to agents."
                {...f.check('allowAllBundled')}
              />
              {!form.allowAllBundled ? (
                <ListField
                  label="Allowed bundled skills"
                  id="sk-bundled-allow"
                  hint="Skill keys or names, one per line."
                  placeholder="e.g. weather"
                  {...f.text('allowBundled')}
                />
              ) : null}
            </div>
          </Section>
          <Section title="Discovery and watching">
            <NumberField
              label="Skills read per root"
              id="sk-max-cand"
              hint="Folders past this are ignored with a warning (1 to 10,000)."
              {...f.text('maxCandidatesPerRoot')}
            />
            <NumberField
              label="Largest SKILL.md (bytes)"
              id="sk-max-bytes"
              hint="Larger files make the skill invalid (1,024 to 1,000,000)."
              {...f.text('maxSkillFileBytes')}
            />
            <CheckField id="sk-watch" label="Watch skill folders" hint="Pick up added, changed and removed skills without a restart." {...f.check('watch')} />
            <NumberField
              label="Watch delay (ms)"
              id="sk-debounce"
              hint="Quiet time before a change is picked up (50 to 10,000)."
              disabled={!form.watch}
              {...f.text('watchDebounceMs')}
            />
          </Section>
          <Section title="Imports">
            <NumberField
              label="Upload limit (MiB)"
              id="sk-upload"
              hint="Largest archive accepted by upload, URL or ClawHub (1 to 512)."
              {...f.text('uploadMaxMb')}
            />
            <NumberField
              label="Update check interval (hours)"
              id="sk-update-hours"
              hint="How often imported skills are checked against their sources; 0 turns periodic checks off. Policies are set on the Skills page."
              {...f.text('updateCheckHours')}
            />
            <TextField
              label="ClawHub base URL"
              id="sk-clawhub"
              hint="The registry searched and installed from."
              className="font-mono"
              {...f.text('clawhubBaseUrl')}
            />
            <ListField
              label="URL host allowlist"
              id="sk-url-allow"
              hint="Only these hosts may be imported from by URL; empty allows any public host. One per line."
              placeholder="e.g. downloads.example.com"
              {...f.text('urlHostAllowlist')}
            />
            <ListField
              label="Allowed private hosts"
              id="sk-url-private"
              hint="Hosts allowed although they resolve to loopback or private addresses (an internal mirror). One per line."
              placeholder="e.g. mirror.internal:8080"
              {...f.text('urlPrivateHosts')}
            />
            <CheckField
              id="sk-git-local"
              label="Allow local git repositories"
              hint="Git imports from local paths and file:// URLs (off by default: they read the server’s disk)."
              {...f.check('gitAllowLocal')}
            />
          </Section>
          <Section title="Import policy">
            <ImportPolicyFields form={form} fields={f} />
          </Section>
          <Section title="Gateway config">
            <div className="grid content-start gap-2 md:col-span-2">
              <TextField
                label="Metadata blocks read"
                id="sk-metadata-keys"
                hint={`SKILL.md metadata blocks whose requirements and installers are read, in order; the first present wins. Known: ${METADATA_FLAVOURS.all.keys.join(', ')}.`}
                className="font-mono"
                {...f.text('metadataKeys')}
              />
              <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                <span>As a gateway flavour reads them:</span>
                {Object.entries(METADATA_FLAVOURS).map(([id, flavour]) => (
                  <Button
                    key={id}
                    type="button"
                    size="sm"
                    variant="outline"
                    data-testid={`sk-metadata-flavour-${id}`}
                    title={flavour.keys.join(', ')}
                    onClick={() => set('metadataKeys', flavour.keys.join(', '))}
                  >
                    {flavour.label}
                  </Button>
                ))}
              </div>
            </div>
            <div className="md:col-span-2">
              <ListField
                label="Config (JSON)"
                id="sk-config"
                hint='What requires.config paths are checked against, e.g. {"browser": {"enabled": true}}.'
                rows={5}
                {...f.text('config')}
              />
            </div>
          </Section>
        </>
      )}
    </DraftSettingsCard>
  );
}
