'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { toast } from 'sonner';
import type { z } from 'zod';
import { updateGithubSettingsAction } from '@/app/(console)/settings/actions';
import { type githubSettingsOut, githubSettingsPatch, githubSettingsSchema } from '@/lib/settings/github-settings';
import { ApiError, api } from '../api';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { CheckField, Field, Input } from '../ui/input';
import { ErrorNote, RetryableError, Skeleton } from '../ui/misc';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { SettingsSaveBar } from './save-bar';

type Stored = z.infer<typeof githubSettingsOut>;
type Key = keyof z.infer<typeof githubSettingsSchema>;
const KEYS = Object.keys(githubSettingsSchema.shape) as Key[];
export const githubSettingsKey = ['settings', 'github'] as const;

/** The form holds text; numbers and the owner list are turned into settings for the schema. */
interface Form {
  apiBaseUrl: string;
  downloadHosts: string;
  allowedOwners: string;
  maxAssetMb: string;
  requireChecksum: boolean;
  retainedVersions: string;
  smokeTimeoutSeconds: string;
}

const num = (s: string): number | string => (/^\s*-?\d+\s*$/.test(s) ? Number(s) : s.trim());
export const splitOwners = (s: string) => s.split(/[\s,]+/).filter(Boolean);
const toForm = (s: Stored): Form => ({
  apiBaseUrl: s.apiBaseUrl,
  downloadHosts: s.downloadHosts.join(', '),
  allowedOwners: s.allowedOwners.join(', '),
  maxAssetMb: String(s.maxAssetMb),
  requireChecksum: s.requireChecksum,
  retainedVersions: String(s.retainedVersions),
  smokeTimeoutSeconds: String(s.smokeTimeoutSeconds),
});
const fromForm = (f: Form) => ({
  apiBaseUrl: f.apiBaseUrl.trim(),
  downloadHosts: splitOwners(f.downloadHosts),
  allowedOwners: splitOwners(f.allowedOwners),
  maxAssetMb: num(f.maxAssetMb),
  requireChecksum: f.requireChecksum,
  retainedVersions: num(f.retainedVersions),
  smokeTimeoutSeconds: num(f.smokeTimeoutSeconds),
});

/** A schema issue in the words of its input: numbers typed as text, the owner an issue is about. */
function issueText(path: PropertyKey[], message: string, raw: ReturnType<typeof fromForm>): string {
  const field = String(path[0]);
  if (field !== 'apiBaseUrl' && typeof (raw as Record<string, unknown>)[field] === 'string') return 'Enter a whole number';
  const list = (raw as Record<string, unknown>)[field];
  return typeof path[1] === 'number' && Array.isArray(list) ? `“${list[path[1]]}”: ${message}` : message;
}

const LABELS: Record<Key | 'token', string> = {
  apiBaseUrl: 'API base URL',
  downloadHosts: 'download hosts',
  allowedOwners: 'allowed owners',
  maxAssetMb: 'max asset size',
  requireChecksum: 'require checksum',
  retainedVersions: 'retained versions',
  smokeTimeoutSeconds: 'smoke-test timeout',
  token: 'token',
};
const TOKEN_SOURCE: Record<Stored['tokenSource'], string> = {
  setting: 'the token saved here',
  GITHUB_TOKEN: 'the GITHUB_TOKEN environment variable of the server',
  GH_TOKEN: 'the GH_TOKEN environment variable of the server',
  none: 'no token: anonymous requests (60 an hour)',
};

/** The origin of a URL as typed, or the text itself while it is not a URL yet. */
function originOf(url: string): string {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return url.trim();
  }
}

/** Settings → GitHub: API base (Enterprise), token, owner allowlist and the install policies. */
export function GithubSettingsCard() {
  const qc = useQueryClient();
  const can = useCan('packages.write');
  const q = useQuery({ queryKey: githubSettingsKey, queryFn: ({ signal }) => api<Stored>('/api/v1/settings/github', { signal }) });
  const stored = q.data;
  const [form, setForm] = useState<Form | null>(null);
  const [token, setToken] = useState('');
  const [removeToken, setRemoveToken] = useState(false);
  const [serverIssues, setServerIssues] = useState<Record<string, string>>({});
  useEffect(() => {
    if (stored && !form) setForm(toForm(stored));
  }, [stored, form]);

  const parsed = useMemo(() => (form ? githubSettingsSchema.safeParse(fromForm(form)) : null), [form]);
  const errors: Record<string, string> = { ...serverIssues };
  if (form && parsed && !parsed.success) for (const i of parsed.error.issues) errors[String(i.path[0])] ??= issueText(i.path, i.message, fromForm(form));
  const patch: Record<string, unknown> = {};
  if (stored && parsed?.success) for (const k of KEYS) if (JSON.stringify(stored[k]) !== JSON.stringify(parsed.data[k])) patch[k] = parsed.data[k];
  if (removeToken) patch.token = '';
  else if (token) patch.token = token;
  const tokenCheck = token ? githubSettingsPatch.shape.token.safeParse(token) : null;
  if (tokenCheck && !tokenCheck.success) errors.token = tokenCheck.error.issues[0]?.message ?? 'not a valid token';
  const valid = !!parsed?.success && !errors.token;
  const changed = Object.keys(patch);

  const save = useOperation(updateGithubSettingsAction, {
    input: (body: z.input<typeof githubSettingsPatch>) => ({ body }),
    onSuccess: (next, body) => {
      qc.setQueryData(githubSettingsKey, next);
      setForm(toForm(next));
      setToken('');
      setRemoveToken(false);
      setServerIssues({});
      void qc.invalidateQueries({ queryKey: ['packages'] });
      toast.success('GitHub settings saved', {
        description: `Changed: ${Object.keys(body)
          .map((k) => LABELS[k as Key] ?? k)
          .join(', ')}.`,
      });
    },
    onError: (e) => {
      if (e instanceof ApiError && e.issues.length) setServerIssues(Object.fromEntries(e.issues.map((i) => [i.path.split('.')[0], i.message])));
    },
  });

  const set = <K extends keyof Form>(k: K, v: Form[K]) => {
    setForm((f) => (f ? { ...f, [k]: v } : f));
    setServerIssues(({ [k]: _drop, ...rest }) => rest);
  };
  const disabled = !can.allowed || save.isPending;
  const blocked = !can.allowed ? can.why : !valid ? 'Fix the fields marked in red first.' : !changed.length ? 'Nothing has changed.' : undefined;
  const owners = form ? splitOwners(form.allowedOwners) : [];
  const configured = stored?.token === '***';

  return (
    <Card>
      <CardHeader>
        <CardTitle>GitHub</CardTitle>
        <CardDescription>
          Where GitHub-release binaries come from, the token used for the API, which owners may be installed from, and the install policies.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {q.error && !stored ? (
          <RetryableError error={q.error} onRetry={() => void q.refetch()} />
        ) : !stored || !form ? (
          <div className="grid gap-4 sm:grid-cols-2" role="status" aria-busy="true" aria-label="Loading GitHub settings">
            {[0, 1, 2, 3].map((n) => (
              <Skeleton key={n} className="h-14 w-full" />
            ))}
          </div>
        ) : (
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
              {!can.allowed ? <p className="text-sm text-muted-foreground md:col-span-2">Read only: {can.why}</p> : null}
              <ErrorNote error={save.error && !(save.error instanceof ApiError && save.error.issues.length) ? save.error : null} className="md:col-span-2" />
              <Field
                label="API base URL"
                htmlFor="gh-api-base"
                error={errors.apiBaseUrl}
                hint="https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise."
              >
                <Input
                  id="gh-api-base"
                  value={form.apiBaseUrl}
                  onChange={(e) => set('apiBaseUrl', e.target.value)}
                  autoComplete="off"
                  spellCheck={false}
                  aria-invalid={!!errors.apiBaseUrl}
                />
              </Field>
              <Field
                label="Token"
                htmlFor="gh-token"
                error={errors.token}
                hint={
                  removeToken
                    ? 'The saved token will be removed when you save.'
                    : configured && !token && stored && originOf(form.apiBaseUrl) !== originOf(stored.apiBaseUrl)
                      ? 'The saved token belongs to the old API host and will be removed: enter a token for the new one.'
                      : configured
                        ? 'Configured — leave empty to keep it.'
                        : 'Optional; raises the limit to 5,000 requests an hour. Stored encrypted.'
                }
              >
                <div className="flex gap-2">
                  <Input
                    id="gh-token"
                    type="password"
                    value={token}
                    onChange={(e) => {
                      setToken(e.target.value);
                      setRemoveToken(false);
                    }}
                    placeholder={configured ? '•••••••• (configured)' : 'ghp_…'}
                    autoComplete="new-password"
                    aria-invalid={!!errors.token}
                  />
                  {configured ? (
                    <Button
                      type="button"
                      variant="outline"
                      onClick={() => {
                        setRemoveToken((r) => !r);
                        setToken('');
                      }}
                      aria-pressed={removeToken}
                    >
                      <Trash2 aria-hidden /> {removeToken ? 'Keep' : 'Remove'}
                    </Button>
                  ) : null}
                </div>
              </Field>
              <p className="text-xs text-muted-foreground md:col-span-2" data-testid="token-source">
                Token in use: <span className="font-medium text-foreground">{TOKEN_SOURCE[stored.tokenSource]}</span>. A token saved here wins over
                GITHUB_TOKEN, then GH_TOKEN.
              </p>
              <Field
                label="Extra download hosts"
                htmlFor="gh-download-hosts"
                error={errors.downloadHosts}
                hint="Hosts release downloads may redirect to besides GitHub’s own (Enterprise storage, mirrors); host names separated by commas or spaces."
              >
                <Input
                  id="gh-download-hosts"
                  value={form.downloadHosts}
                  onChange={(e) => set('downloadHosts', e.target.value)}
                  autoComplete="off"
                  spellCheck={false}
                  aria-invalid={!!errors.downloadHosts}
                  placeholder="objects.ghe.example.com"
                />
              </Field>
              <div className="hidden md:block" />
              <Field
                label="Allowed owners"
                htmlFor="gh-owners"
                error={errors.allowedOwners}
                hint="Users or organisations, separated by commas or spaces. Empty allows every owner."
              >
                <Input
                  id="gh-owners"
                  value={form.allowedOwners}
                  onChange={(e) => set('allowedOwners', e.target.value)}
                  autoComplete="off"
                  spellCheck={false}
                  aria-invalid={!!errors.allowedOwners}
                  aria-describedby="gh-owner-chips"
                />
              </Field>
              <ul id="gh-owner-chips" aria-label="Allowed owners" className="flex flex-wrap content-start gap-1.5 md:pt-6">
                {owners.length ? (
                  owners.map((o, i) => (
                    <li key={`${o}-${i}`}>
                      <Badge variant={/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/.test(o) ? 'secondary' : 'destructive'} className="font-mono">
                        {o}
                      </Badge>
                    </li>
                  ))
                ) : (
                  <li className="text-xs text-muted-foreground">Every owner is allowed.</li>
                )}
              </ul>
              <Field label="Max asset size (MB)" htmlFor="gh-max" error={errors.maxAssetMb} hint="Larger release assets are not downloaded (1 to 2048).">
                <Input
                  id="gh-max"
                  inputMode="numeric"
                  className="w-40"
                  value={form.maxAssetMb}
                  onChange={(e) => set('maxAssetMb', e.target.value)}
                  aria-invalid={!!errors.maxAssetMb}
                />
              </Field>
              <Field
                label="Retained versions"
                htmlFor="gh-retained"
                error={errors.retainedVersions}
                hint="Earlier versions kept for one-click rollback (0 to 10)."
              >
                <Input
                  id="gh-retained"
                  inputMode="numeric"
                  className="w-40"
                  value={form.retainedVersions}
                  onChange={(e) => set('retainedVersions', e.target.value)}
                  aria-invalid={!!errors.retainedVersions}
                />
              </Field>
              <Field
                label="Smoke-test timeout (seconds)"
                htmlFor="gh-smoke"
                error={errors.smokeTimeoutSeconds}
                hint="How long a new binary may take to answer its smoke test (1 to 120)."
              >
                <Input
                  id="gh-smoke"
                  inputMode="numeric"
                  className="w-40"
                  value={form.smokeTimeoutSeconds}
                  onChange={(e) => set('smokeTimeoutSeconds', e.target.value)}
                  aria-invalid={!!errors.smokeTimeoutSeconds}
                />
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
              onDiscard={() => {
                setForm(toForm(stored));
                setToken('');
                setRemoveToken(false);
                setServerIssues({});
              }}
              blocked={blocked}
              saving={save.isPending}
            />
          </form>
        )}
      </CardContent>
    </Card>
  );
}
