'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { z } from 'zod';
import { updateGithubSettingsAction } from '@/app/(console)/settings/actions';
import { get } from '@/components/api';
import { githubApi } from '@/lib/api/contracts/github';
import { githubSettingsPatch, githubSettingsSchema } from '@/lib/settings/github-settings';
import { DraftSettingsCard } from '../forms/draft-settings-card';
import { NumberField, TextField } from '../forms/fields';
import { useSettingsDraft } from '../forms/use-settings-draft';
import { useSettingsSave } from '../forms/use-settings-save';
import { CheckField } from '../ui/input';
import { useCan } from '../viewer';
import { fromForm, issueText, KEYS, type Key, LABELS, originOf, type Stored, splitOwners, TOKEN_SOURCE, toForm } from './github-settings-form';
import { GithubTokenField } from './github-token-field';
import { NameChips } from './name-chips';

export const githubSettingsKey = ['settings', 'github'] as const;

const ownerOk = (o: string) => /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/.test(o);

/** Settings → GitHub: API base (Enterprise), token, owner allowlist and the install policies. */
export function GithubSettingsCard() {
  const can = useCan('packages.write');
  const q = useQuery({ queryKey: githubSettingsKey, queryFn: ({ signal }) => get(githubApi.githubSettings, { signal }) });
  const stored = q.data;
  const draft = useSettingsDraft(stored, toForm);
  const { form } = draft;
  const [token, setToken] = useState('');
  const [removeToken, setRemoveToken] = useState(false);

  const parsed = useMemo(() => (form ? githubSettingsSchema.safeParse(fromForm(form)) : null), [form]);
  const errors: Record<string, string> = { ...draft.serverIssues };
  if (form && parsed && !parsed.success) for (const i of parsed.error.issues) errors[String(i.path[0])] ??= issueText(i.path, i.message, fromForm(form));
  const patch: Record<string, unknown> = {};
  if (stored && parsed?.success) for (const k of KEYS) if (JSON.stringify(stored[k]) !== JSON.stringify(parsed.data[k])) patch[k] = parsed.data[k];
  if (removeToken) patch.token = '';
  else if (token) patch.token = token;
  const tokenCheck = token ? githubSettingsPatch.shape.token.safeParse(token) : null;
  if (tokenCheck && !tokenCheck.success) errors.token = tokenCheck.error.issues[0]?.message ?? 'not a valid token';
  const valid = !!parsed?.success && !errors.token;
  const changed = Object.keys(patch);

  const resetAll = (s: Stored) => {
    draft.reset(s);
    setToken('');
    setRemoveToken(false);
  };
  const save = useSettingsSave(updateGithubSettingsAction, {
    input: (body: z.input<typeof githubSettingsPatch>) => ({ body }),
    queryKey: githubSettingsKey,
    reset: resetAll,
    onError: draft.onSaveError,
    invalidate: ['packages'],
    saved: { what: 'GitHub settings', labels: LABELS },
  });

  const configured = stored?.token === '***';

  return (
    <DraftSettingsCard
      title="GitHub"
      description="Where GitHub-release binaries come from, the token used for the API, which owners may be installed from, and the install policies."
      query={q}
      loadingLabel="Loading GitHub settings"
      stored={stored}
      draft={draft}
      errors={errors}
      label="GitHub settings"
      testId="github-settings-form"
      can={can}
      save={save}
      valid={valid}
      changed={changed.map((k) => LABELS[k as Key])}
      onSave={() => save.mutate(patch)}
      onDiscard={resetAll}
      className="gap-4 md:grid-cols-2"
      notesClassName="md:col-span-2"
    >
      {(f, { stored, form }) => (
        <>
          <TextField
            label="API base URL"
            id="gh-api-base"
            hint="https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise."
            {...f.text('apiBaseUrl')}
          />
          <GithubTokenField
            token={token}
            onToken={setToken}
            removeToken={removeToken}
            onRemoveToken={setRemoveToken}
            configured={configured}
            hostChanged={originOf(form.apiBaseUrl) !== originOf(stored.apiBaseUrl)}
            error={errors.token}
          />
          <p className="text-xs text-muted-foreground md:col-span-2" data-testid="token-source">
            Token in use: <span className="font-medium text-foreground">{TOKEN_SOURCE[stored.tokenSource]}</span>. A token saved here wins over GITHUB_TOKEN,
            then GH_TOKEN.
          </p>
          <TextField
            label="Extra download hosts"
            id="gh-download-hosts"
            hint="Hosts release downloads may redirect to besides GitHub’s own (Enterprise storage, mirrors); host names separated by commas or spaces."
            placeholder="e.g. objects.ghe.example.com"
            {...f.text('downloadHosts')}
          />
          <div className="hidden md:block" />
          <TextField
            label="Allowed owners"
            id="gh-owners"
            hint="Users or organisations, separated by commas or spaces. Empty allows every owner."
            aria-describedby="gh-owner-chips"
            {...f.text('allowedOwners')}
          />
          <NameChips
            id="gh-owner-chips"
            label="Allowed owners"
            names={splitOwners(form.allowedOwners)}
            valid={ownerOk}
            empty="Every owner is allowed."
            className="content-start md:pt-6"
          />
          <NumberField label="Max asset size (MB)" id="gh-max" hint="Larger release assets are not downloaded (1 to 2048)." {...f.text('maxAssetMb')} />
          <NumberField
            label="Retained versions"
            id="gh-retained"
            hint="Earlier versions kept for one-click rollback (0 to 10)."
            {...f.text('retainedVersions')}
          />
          <NumberField
            label="Smoke-test timeout (seconds)"
            id="gh-smoke"
            hint="How long a new binary may take to answer its smoke test (1 to 120)."
            {...f.text('smokeTimeoutSeconds')}
          />
          <CheckField
            id="gh-require"
            wrapperClassName="md:pt-6"
            label="Require a checksum"
            hint="Refuse releases that publish no digest or checksum file, instead of recording the hash on first use (TOFU)."
            {...f.check('requireChecksum')}
          />
        </>
      )}
    </DraftSettingsCard>
  );
}
