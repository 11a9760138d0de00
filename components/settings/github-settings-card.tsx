'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import type { z } from 'zod';
import { updateGithubSettingsAction } from '@/app/(console)/settings/actions';
import { githubSettingsPatch, githubSettingsSchema } from '@/lib/settings/github-settings';
import { api } from '../api';
import { CheckField, Field, Input } from '../ui/input';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { type Form, fromForm, issueText, KEYS, type Key, LABELS, originOf, type Stored, splitOwners, TOKEN_SOURCE, toForm } from './github-settings-form';
import { GithubTokenField } from './github-token-field';
import { NameChips } from './name-chips';
import { SettingsSaveBar, saveBlockedReason } from '../forms/save-bar';
import { SettingsFormCard, SettingsFormNotes } from '../forms/settings-form-card';
import { useSettingsDraft } from '../forms/use-settings-draft';

export const githubSettingsKey = ['settings', 'github'] as const;

type TextKey = Exclude<keyof Form, 'requireChecksum'>;
const ownerOk = (o: string) => /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/.test(o);

/** Settings → GitHub: API base (Enterprise), token, owner allowlist and the install policies. */
export function GithubSettingsCard() {
  const qc = useQueryClient();
  const can = useCan('packages.write');
  const q = useQuery({ queryKey: githubSettingsKey, queryFn: ({ signal }) => api<Stored>('/api/v1/settings/github', { signal }) });
  const stored = q.data;
  const draft = useSettingsDraft(stored, toForm);
  const { form, set } = draft;
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
  const save = useOperation(updateGithubSettingsAction, {
    input: (body: z.input<typeof githubSettingsPatch>) => ({ body }),
    onSuccess: (next, body) => {
      qc.setQueryData(githubSettingsKey, next);
      resetAll(next);
      void qc.invalidateQueries({ queryKey: ['packages'] });
      toast.success('GitHub settings saved', {
        description: `Changed: ${Object.keys(body)
          .map((k) => LABELS[k as Key] ?? k)
          .join(', ')}.`,
      });
    },
    onError: draft.onSaveError,
  });

  const disabled = !can.allowed || save.isPending;
  const blocked = saveBlockedReason(can, valid, changed.length);
  const configured = stored?.token === '***';
  const input = (f: Form, k: TextKey, id: string, props: React.InputHTMLAttributes<HTMLInputElement>) => (
    <Input id={id} value={f[k]} onChange={(e) => set(k, e.target.value)} aria-invalid={!!errors[k]} {...props} />
  );
  const text = { autoComplete: 'off', spellCheck: false } as const;
  const numeric = { inputMode: 'numeric', className: 'w-40' } as const;

  return (
    <SettingsFormCard
      title="GitHub"
      description="Where GitHub-release binaries come from, the token used for the API, which owners may be installed from, and the install policies."
      query={q}
      value={stored && form ? { stored, form } : null}
      loadingLabel="Loading GitHub settings"
    >
      {({ stored, form }) => (
        <form
          noValidate
          aria-label="GitHub settings"
          data-testid="github-settings-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!blocked) save.mutate(patch);
          }}
        >
          <fieldset disabled={disabled} className="grid gap-4 md:grid-cols-2">
            <SettingsFormNotes can={can} saveError={save.error} className="md:col-span-2" />
            <Field
              label="API base URL"
              htmlFor="gh-api-base"
              error={errors.apiBaseUrl}
              hint="https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise."
            >
              {input(form, 'apiBaseUrl', 'gh-api-base', text)}
            </Field>
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
            <Field
              label="Extra download hosts"
              htmlFor="gh-download-hosts"
              error={errors.downloadHosts}
              hint="Hosts release downloads may redirect to besides GitHub’s own (Enterprise storage, mirrors); host names separated by commas or spaces."
            >
              {input(form, 'downloadHosts', 'gh-download-hosts', { ...text, placeholder: 'e.g. objects.ghe.example.com' })}
            </Field>
            <div className="hidden md:block" />
            <Field
              label="Allowed owners"
              htmlFor="gh-owners"
              error={errors.allowedOwners}
              hint="Users or organisations, separated by commas or spaces. Empty allows every owner."
            >
              {input(form, 'allowedOwners', 'gh-owners', { ...text, 'aria-describedby': 'gh-owner-chips' })}
            </Field>
            <NameChips
              id="gh-owner-chips"
              label="Allowed owners"
              names={splitOwners(form.allowedOwners)}
              valid={ownerOk}
              empty="Every owner is allowed."
              className="content-start md:pt-6"
            />
            <Field label="Max asset size (MB)" htmlFor="gh-max" error={errors.maxAssetMb} hint="Larger release assets are not downloaded (1 to 2048).">
              {input(form, 'maxAssetMb', 'gh-max', numeric)}
            </Field>
            <Field
              label="Retained versions"
              htmlFor="gh-retained"
              error={errors.retainedVersions}
              hint="Earlier versions kept for one-click rollback (0 to 10)."
            >
              {input(form, 'retainedVersions', 'gh-retained', numeric)}
            </Field>
            <Field
              label="Smoke-test timeout (seconds)"
              htmlFor="gh-smoke"
              error={errors.smokeTimeoutSeconds}
              hint="How long a new binary may take to answer its smoke test (1 to 120)."
            >
              {input(form, 'smokeTimeoutSeconds', 'gh-smoke', numeric)}
            </Field>
            <CheckField
              id="gh-require"
              wrapperClassName="md:pt-6"
              label="Require a checksum"
              hint="Refuse releases that publish no digest or checksum file, instead of recording the hash on first use (TOFU)."
              checked={form.requireChecksum}
              onChange={(e) => set('requireChecksum', e.target.checked)}
            />
          </fieldset>
          <SettingsSaveBar
            valid={valid}
            changed={changed.map((k) => LABELS[k as Key])}
            disabled={disabled}
            discardDisabled={!changed.length && valid}
            onDiscard={() => resetAll(stored)}
            blocked={blocked}
            saving={save.isPending}
          />
        </form>
      )}
    </SettingsFormCard>
  );
}
