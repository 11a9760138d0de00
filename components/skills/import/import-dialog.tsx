'use client';

import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useEffect, useState } from 'react';
import { skillsApi } from '@/lib/api/contracts/skills';
import type { ImportInput } from '@/lib/skills/service/schemas';
import { ApiError, get } from '../../api';
import type { Job } from '../../jobs/view';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { CheckField, Field, Input } from '../../ui/input';
import { ErrorNote, Tip } from '../../ui/misc';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { useCan } from '../../viewer';
import { skillsSettingsKey, useImportSkill } from '../queries';
import { ClawhubFields } from './clawhub-picker';
import { clawhubRef, describeSource, EMPTY_FORM, type ImportForm, type SourceKindTab, toInput, validate } from './form';
import { ImportRun } from './import-run';
import { GitFields, UrlFields } from './source-fields';
import { sha256Hex, uploadArchive } from './upload';
import { UploadField } from './upload-field';

const TABS: { id: SourceKindTab; label: string }[] = [
  { id: 'upload', label: 'Upload' },
  { id: 'git', label: 'Git' },
  { id: 'url', label: 'URL' },
  { id: 'clawhub', label: 'ClawHub' },
];

const UPLOADS_OFF =
  'Archive uploads are switched off on this server: an admin can switch them on in Settings → Skills (Allow uploaded archives). Import from git, a URL or ClawHub instead.';

/** Server field issues ("source.url", "slug") onto the form's fields. */
function issueField(kind: SourceKindTab, path: string): string {
  const [head, key] = path.split('.');
  if (head !== 'source') return head;
  return kind === 'git'
    ? key === 'ref'
      ? 'gitRef'
      : key === 'subdir'
        ? 'gitSubdir'
        : 'gitUrl'
    : kind === 'clawhub'
      ? 'clawhubRef'
      : kind === 'url'
        ? 'url'
        : 'file';
}

/** Import a skill from an upload, git, a URL or ClawHub; then follow the job in the same dialog. */
export function ImportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const can = useCan('skills.write');
  const settings = useQuery({
    queryKey: skillsSettingsKey,
    queryFn: ({ signal }) => get(skillsApi.skillsSettings, { signal }),
    staleTime: 60_000,
  });
  const maxMb = settings.data?.uploadMaxMb;
  const uploadsOff = settings.data?.allowUploadedArchives === false;
  const [form, setForm] = useState<ImportForm>(EMPTY_FORM);
  useEffect(() => {
    if (uploadsOff) setForm((f) => (f.kind === 'upload' ? { ...f, kind: 'git', file: null } : f));
  }, [uploadsOff]);
  const [touched, setTouched] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploading, setUploading] = useState(false);
  const [serverIssues, setServerIssues] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [run, setRun] = useState<{ job: Job; input: ImportInput } | null>(null);
  const start = useImportSkill();
  const errors = { ...validate(form, { uploadMaxMb: maxMb, touched }), ...serverIssues };
  const busy = uploading || start.isPending;

  const set = <K extends keyof ImportForm>(k: K, v: ImportForm[K]) => {
    setForm((f) => ({ ...f, [k]: v }));
    setServerIssues(({ [k as string]: _drop, ...rest }) => rest);
    setError(null);
  };

  const launch = (input: ImportInput) =>
    start.mutate(input, {
      onSuccess: (job) => setRun({ job, input }),
      onError: (e) => {
        if (e instanceof ApiError && e.issues.length) setServerIssues(Object.fromEntries(e.issues.map((i) => [issueField(form.kind, i.path), i.message])));
        // A slug already taken is answered before the job starts: said at the slug field.
        else if (e instanceof ApiError && e.code === 'exists') setServerIssues({ slug: e.message });
        else setError(e);
      },
    });

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setTouched(true);
    setError(null);
    if (Object.keys(validate(form, { uploadMaxMb: maxMb, touched: true })).length) return;
    if (form.kind !== 'upload') return launch(toInput(form));
    try {
      setUploading(true);
      setProgress(0);
      const file = form.file!;
      const record = await uploadArchive(file, await sha256Hex(file), setProgress);
      launch(toInput(form, record.uploadId));
    } catch (err) {
      setError(err);
      setProgress(null);
    } finally {
      setUploading(false);
    }
  };

  const retry = (extra: { acknowledge?: { reason: string }; ownerHandle?: string; force?: true }) => {
    if (!run) return;
    const input: ImportInput = { ...run.input, ...(extra.acknowledge ? { acknowledge: extra.acknowledge } : {}), ...(extra.force ? { force: true } : {}) };
    if (extra.ownerHandle && input.source.kind === 'clawhub')
      input.source = { kind: 'clawhub', ref: clawhubRef(input.source.ref.replace(/^@[^/]+\//, ''), extra.ownerHandle) };
    launch(input);
  };

  const reset = () => {
    setRun(null);
    setForm(uploadsOff ? { ...EMPTY_FORM, kind: 'git' } : EMPTY_FORM);
    setTouched(false);
    setProgress(null);
    setServerIssues({});
    setError(null);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={run ? run.job.title : 'Import skill'}
      description={
        run
          ? 'The import runs as a job: closing this window does not stop it.'
          : 'Fetched into private staging, checked, scanned, then installed as a new version of a managed skill.'
      }
      className="max-h-[90dvh] max-w-2xl overflow-y-auto"
    >
      {run ? (
        <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
          <ImportRun key={run.job.id} job={run.job} onRetry={retry} retrying={start.isPending} canAcknowledge={can.allowed} />
          <ErrorNote error={start.error} />
          <div className="flex justify-end gap-2 border-t pt-3">
            <Button variant="outline" onClick={reset}>
              Import another
            </Button>
            <Button onClick={() => onOpenChange(false)}>Close</Button>
          </div>
        </div>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-4" aria-label="Import skill" data-testid="import-form">
          <Tabs value={form.kind} onValueChange={(v) => set('kind', v as SourceKindTab)}>
            <TabsList aria-label="Where the skill comes from">
              {TABS.map((t) => {
                const off = t.id === 'upload' && uploadsOff;
                const trigger = (
                  <TabsTrigger key={t.id} value={t.id} disabled={busy || off} data-testid={`import-tab-${t.id}`}>
                    {t.label}
                  </TabsTrigger>
                );
                return off ? (
                  <Tip key={t.id} content={UPLOADS_OFF}>
                    {trigger}
                  </Tip>
                ) : (
                  trigger
                );
              })}
            </TabsList>
            {uploadsOff ? (
              <p className="mt-2 text-xs text-muted-foreground" data-testid="uploads-off-note">
                {UPLOADS_OFF}
              </p>
            ) : null}
            <TabsContent value="upload" className="mt-3">
              {uploadsOff ? null : (
                <UploadField file={form.file} onFile={(f) => set('file', f)} error={errors.file} progress={progress} maxMb={maxMb} disabled={busy} />
              )}
            </TabsContent>
            <TabsContent value="git" className="mt-3">
              <GitFields form={form} set={set} errors={errors} disabled={busy} />
            </TabsContent>
            <TabsContent value="url" className="mt-3">
              <UrlFields form={form} set={set} errors={errors} disabled={busy} />
            </TabsContent>
            <TabsContent value="clawhub" className="mt-3">
              <ClawhubFields form={form} set={set} errors={errors} disabled={busy} />
            </TabsContent>
          </Tabs>
          <div className="grid gap-3 border-t pt-4 sm:grid-cols-2">
            <Field label="Install as (slug)" htmlFor="imp-slug" error={errors.slug} hint="Optional; the skill’s own name if empty.">
              <Input
                id="imp-slug"
                value={form.slug}
                onChange={(e) => set('slug', e.target.value)}
                placeholder="weather"
                autoComplete="off"
                spellCheck={false}
                aria-invalid={!!errors.slug}
                disabled={busy}
                className="font-mono"
              />
            </Field>
            <CheckField
              id="imp-force"
              wrapperClassName="sm:pt-6"
              label="Replace if installed"
              hint="Adds a new version over an installed skill of the same slug (earlier versions stay for rollback)."
              checked={form.force}
              onChange={(e) => set('force', e.target.checked)}
              disabled={busy}
            />
          </div>
          <ErrorNote error={error} />
          <div className="flex flex-wrap items-center justify-end gap-2">
            <span className="mr-auto min-w-0 truncate text-xs text-muted-foreground" aria-live="polite">
              {uploading ? `Uploading ${form.file?.name ?? ''}…` : `Will import ${describeSource(form)}`}
            </span>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy || !can.allowed} data-testid="import-submit">
              <Download aria-hidden /> {uploading ? 'Uploading…' : start.isPending ? 'Starting…' : 'Import'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
