'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, FolderOpen, ListChecks, X } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { checkDepsAction, installDepsAction } from '@/app/(console)/runtime/actions';
import { ApiError } from '../api';
import { formatDuration, jobElapsedMs, stageLabel } from '../jobs/format';
import { jobKey, useJob } from '../jobs/queries';
import { StateChip } from '../jobs/state-chip';
import { useJobStartedToast } from '../jobs/use-start-job';
import { isFinal, type Job, jobHref } from '../jobs/view';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Confirm } from '../ui/dialog';
import { Label } from '../ui/input';
import { ErrorNote, Progress, Tip } from '../ui/misc';
import { callAction } from '../use-operation';
import { useCan } from '../viewer';
import { MAX_FILES, readSkillFolder, type SkillFolder } from './deps-files';
import { type DepsReport, DepsTable, DiagnosticsList } from './deps-results';
import { invalidatePackages } from './queries';

interface CheckBody {
  skillMd?: string;
  files?: { path: string; content: string }[];
}

/** The body for the current inputs: the pasted SKILL.md (or the folder's), and the folder's scripts. */
function buildBody(text: string, folder: SkillFolder | null): CheckBody | null {
  const skillMd = text.trim() ? text : undefined;
  const files = folder?.files.length ? folder.files : undefined;
  if (skillMd === undefined && !files) return null;
  return { ...(skillMd !== undefined ? { skillMd } : {}), ...(files ? { files } : {}) };
}

const sameBody = (a: CheckBody | null, b: CheckBody | null) => !!a && !!b && a.skillMd === b.skillMd && a.files === b.files;

/** A 400's message with each field issue under it. */
function RequestError({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof ApiError && error.issues.length) {
    return (
      <div role="alert" className="grid gap-1 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
        <p>The server refused the request: fix what is listed and check again.</p>
        <ul className="list-disc pl-5 text-xs">
          {error.issues.map((i, n) => (
            <li key={n}>
              <span className="font-mono">{i.path === '(root)' ? 'request' : i.path}</span>: {i.message}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return <ErrorNote error={error} />;
}

/** "Check a skill's dependencies": paste SKILL.md and/or choose the skill folder, see each dependency's status, install the missing ones. */
export function DepsCheckCard() {
  const id = useId();
  const qc = useQueryClient();
  const can = useCan('packages.write');
  const startedToast = useJobStartedToast();
  const [text, setText] = useState('');
  const [folder, setFolder] = useState<SkillFolder | null>(null);
  const [reading, setReading] = useState(false);
  const [readError, setReadError] = useState<string | null>(null);
  const [result, setResult] = useState<{ body: CheckBody; report: DepsReport } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [installJob, setInstallJob] = useState<{ job: Job; body: CheckBody; ended: boolean } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const body = buildBody(text, folder);

  const check = useMutation({
    mutationFn: (b: CheckBody) => callAction(checkDepsAction, { body: b }),
    onSuccess: (report, b) => setResult({ body: b, report }),
  });

  const install = useMutation({
    mutationFn: (b: CheckBody) => callAction(installDepsAction, { body: b }),
    onSuccess: (out, b) => {
      qc.setQueryData(jobKey(out.job.id), out.job);
      for (const c of out.children) qc.setQueryData(jobKey(c.id), c);
      void qc.invalidateQueries({ queryKey: ['jobs'] });
      void qc.invalidateQueries({ queryKey: ['packages', 'history'] });
      startedToast(out.job, 'Installing missing dependencies');
      setResult({ body: b, report: out.report });
      setInstallJob({ job: out.job, body: b, ended: false });
      setConfirming(false);
    },
    onError: (e, b) => {
      setConfirming(false);
      // 409: nothing is missing any more (someone else installed it); show the current state.
      if (e instanceof ApiError && e.status === 409) check.mutate(b);
    },
  });

  const onFolder = async (list: FileList | null) => {
    if (!list?.length) return;
    setReading(true);
    setReadError(null);
    try {
      const f = await readSkillFolder(list);
      setFolder(f);
      // The folder's SKILL.md fills the text box only when nothing was pasted.
      if (f.skillMd !== null && !text.trim()) setText(f.skillMd);
      if (!f.files.length && f.skillMd === null)
        setReadError(`No SKILL.md and no script files (.py, .js, .ts … or #! scripts) were found in ${f.folder || 'the folder'}.`);
    } catch (e) {
      setReadError(`Could not read the folder: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setReading(false);
      // Choosing the same folder again must fire onChange again.
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const onCheck = (e?: React.FormEvent) => {
    e?.preventDefault();
    if (!body || check.isPending) return;
    install.reset();
    check.mutate(body);
  };

  const report = result?.report;
  const stale = !!result && !sameBody(result.body, body);
  const toInstall = report?.deps.filter((d) => d.status === 'missing' && d.manager !== 'github') ?? [];
  const githubMissing = report?.deps.filter((d) => d.status === 'missing' && d.manager === 'github') ?? [];
  const installing = !!installJob && !installJob.ended;
  const declaredSpecs = new Set(report?.deps.map((d) => d.spec));
  const undeclared = report?.declared ? report.scanned.filter((s) => !declaredSpecs.has(s.spec)) : [];

  const installBlocked = !can.allowed
    ? can.why
    : installing
      ? 'The install started for this skill is still running.'
      : stale
        ? 'The SKILL.md or folder changed since the last check: check again first.'
        : !toInstall.length
          ? 'Nothing to install.'
          : undefined;

  const onJobEnded = (job: Job) => {
    setInstallJob((j) => (j && j.job.id === job.id ? { ...j, ended: true } : j));
    invalidatePackages(qc);
    if (job.state === 'succeeded') toast.success('Dependencies installed', { description: job.title });
    else if (job.state === 'failed') toast.error('Some dependencies were not installed', { description: job.error ?? 'See the job log.' });
    else toast('The dependency install was canceled');
    // What is installed changed: check the same inputs again.
    if (installJob) check.mutate(installJob.body);
  };

  return (
    <Card data-testid="deps-check">
      <CardHeader>
        <CardTitle>Check a skill’s dependencies</CardTitle>
        <CardDescription>
          Paste a SKILL.md (its <code>deps:</code> and <code>exclude_deps:</code>) and/or choose the skill’s folder to scan its scripts; see what this runtime
          already has and install what is missing.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onCheck} className="grid gap-4" noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-md`}>SKILL.md</Label>
            <textarea
              id={`${id}-md`}
              value={text}
              onChange={(e) => setText(e.target.value)}
              rows={8}
              spellCheck={false}
              placeholder={'---\nname: my-skill\ndeps:\n  - pip:requests>=2.31\n  - npm:typescript\n  - system:ffmpeg\n---'}
              aria-describedby={`${id}-md-hint`}
              className="w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-[13px] shadow-xs placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring"
            />
            <p id={`${id}-md-hint`} className="text-xs text-muted-foreground">
              <code>deps:</code> is authoritative when present; otherwise the scan of the scripts decides, minus <code>exclude_deps:</code>.
            </p>
          </div>

          <div className="grid gap-1.5">
            <span className="text-sm font-medium leading-none" id={`${id}-folder-label`}>
              Skill folder <span className="font-normal text-muted-foreground">(optional)</span>
            </span>
            <div className="flex flex-wrap items-center gap-2">
              <input
                ref={fileInput}
                id={`${id}-folder`}
                type="file"
                multiple
                className="sr-only"
                aria-labelledby={`${id}-folder-label`}
                onChange={(e) => void onFolder(e.target.files)}
                {...({ webkitdirectory: '', directory: '' } as Record<string, string>)}
              />
              <Button type="button" variant="outline" size="sm" onClick={() => fileInput.current?.click()} disabled={reading}>
                <FolderOpen aria-hidden /> {reading ? 'Reading…' : folder ? 'Choose another folder' : 'Choose folder…'}
              </Button>
              {folder ? (
                <>
                  <span className="text-sm" data-testid="deps-folder-summary">
                    <span className="font-mono">{folder.folder || 'folder'}</span>: {folder.files.length} script {folder.files.length === 1 ? 'file' : 'files'}
                    {folder.skillMd !== null ? ' and SKILL.md' : ''}
                    {folder.ignored ? <span className="text-muted-foreground"> · {folder.ignored} other files not sent</span> : null}
                  </span>
                  <Button type="button" variant="ghost" size="sm" aria-label="Forget the chosen folder" onClick={() => setFolder(null)}>
                    <X aria-hidden />
                  </Button>
                </>
              ) : (
                <span className="text-xs text-muted-foreground">
                  Scripts (.py .js .mjs .cjs .ts .mts .cts .jsx .tsx and #! files) up to 512 KiB each, at most {MAX_FILES}; read in your browser.
                </span>
              )}
            </div>
            {folder?.skipped.length ? (
              <details className="text-xs text-muted-foreground">
                <summary className="cursor-pointer">{folder.skipped.length} files skipped</summary>
                <ul className="mt-1 grid gap-0.5 pl-4">
                  {folder.skipped.slice(0, 50).map((s) => (
                    <li key={s.path}>
                      <span className="font-mono">{s.path}</span> — {s.reason}
                    </li>
                  ))}
                  {folder.skipped.length > 50 ? <li>… and {folder.skipped.length - 50} more</li> : null}
                </ul>
              </details>
            ) : null}
            {readError ? <ErrorNote error={readError} /> : null}
          </div>

          <div className="flex flex-wrap items-center gap-2">
            {/* The check runs processes over pasted text, so it needs the write permission too. */}
            <Tip content={!can.allowed ? can.why : !body ? 'Paste a SKILL.md or choose a skill folder first.' : undefined}>
              <Button type="submit" disabled={!can.allowed || !body || check.isPending}>
                <ListChecks aria-hidden /> {check.isPending ? 'Checking…' : result ? 'Check again' : 'Check'}
              </Button>
            </Tip>
            {!can.allowed ? <span className="text-xs text-muted-foreground">{can.why}</span> : null}
            {result || text || folder ? (
              <Button
                type="button"
                variant="ghost"
                onClick={() => {
                  setText('');
                  setFolder(null);
                  setResult(null);
                  check.reset();
                  install.reset();
                }}
                disabled={check.isPending}
              >
                Clear
              </Button>
            ) : null}
          </div>
        </form>

        <div className="mt-4 grid gap-4" aria-live="polite">
          <RequestError error={check.error} />
          {report ? (
            <>
              {stale ? <p className="text-xs text-muted-foreground">The inputs changed since this result: check again to update it.</p> : null}
              <p className="text-sm text-muted-foreground" data-testid="deps-summary">
                {report.declared ? `${report.declared.length} declared in deps:` : 'No deps: key — the scan decides'} · {report.scanned.length} found by the
                scan · {report.deps.length} in the final list ·{' '}
                <span className={report.missing.length ? 'font-medium text-destructive' : 'font-medium text-success'}>
                  {report.missing.length ? `${report.missing.length} missing` : 'nothing missing'}
                </span>
              </p>
              {report.diagnostics.length ? <DiagnosticsList diagnostics={report.diagnostics} /> : null}
              {report.deps.length ? (
                <DepsTable deps={report.deps} />
              ) : (
                <p className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">
                  No dependencies: nothing declared and nothing found by the scan.
                </p>
              )}
              {report.excludedScanned.length || report.excluded.length ? (
                <div className="grid gap-1 text-sm" data-testid="deps-excluded">
                  <h3 className="text-xs font-medium text-muted-foreground">Excluded</h3>
                  {report.excludedScanned.length ? (
                    <p>
                      Removed from the scan by <code>exclude_deps:</code>:{' '}
                      {report.excludedScanned.map((s) => (
                        <code key={s} className="mr-1.5 rounded bg-muted px-1.5 py-0.5 text-xs">
                          {s}
                        </code>
                      ))}
                    </p>
                  ) : null}
                  {report.excluded.length ? (
                    <p className="text-xs text-muted-foreground">
                      <code>exclude_deps:</code> entries: {report.excluded.map((e) => `${e.spec} (line ${e.line})`).join(', ')}
                      {report.declared ? ' — ignored because deps: is present.' : ''}
                    </p>
                  ) : null}
                </div>
              ) : null}
              {undeclared.length ? (
                <p className="text-xs text-muted-foreground">
                  The scan also found {undeclared.map((s) => `${s.spec} (${s.file}:${s.line})`).join(', ')}, which deps: does not list; they are not installed.
                </p>
              ) : null}
              {githubMissing.length ? (
                <p className="text-xs text-muted-foreground">
                  GitHub-release deps ({githubMissing.map((d) => d.spec).join(', ')}) are installed from the GitHub tab, not from here.
                </p>
              ) : null}

              <div className="flex flex-wrap items-center gap-3 border-t pt-4">
                <Tip content={installBlocked}>
                  <Button type="button" onClick={() => setConfirming(true)} disabled={!!installBlocked || install.isPending}>
                    <Download aria-hidden /> {install.isPending ? 'Starting…' : `Install missing (${toInstall.length})`}
                  </Button>
                </Tip>
                {!can.allowed ? <span className="text-xs text-muted-foreground">{can.why}</span> : null}
              </div>
              <RequestError error={install.error} />
            </>
          ) : null}
          {installJob ? <InstallJobStatus key={installJob.job.id} initial={installJob.job} onEnded={onJobEnded} /> : null}
        </div>

        <Confirm
          open={confirming}
          onOpenChange={setConfirming}
          title={`Install ${toInstall.length} missing ${toInstall.length === 1 ? 'dependency' : 'dependencies'}?`}
          description={
            <div className="grid gap-2">
              <p>Each package is installed into Skilldock’s runtime dir as its own job, under one parent job:</p>
              <ul className="grid gap-0.5">
                {toInstall.map((d) => (
                  <li key={d.spec} className="font-mono text-[13px] text-foreground">
                    {d.spec}
                  </li>
                ))}
              </ul>
            </div>
          }
          confirmLabel={`Install ${toInstall.length}`}
          destructive={false}
          busy={install.isPending}
          onConfirm={() => result && install.mutate(result.body)}
        />
      </CardContent>
    </Card>
  );
}

/** Follows the parent install job (pushed live by the page's jobs socket, else polled): state, progress, link; calls onEnded once when it ends. */
function InstallJobStatus({ initial, onEnded }: { initial: Job; onEnded: (job: Job) => void }) {
  const { data } = useJob(initial.id, { poll: true });
  const job = data ?? initial;
  const final = isFinal(job.state);
  const reported = useRef(false);
  const ended = useRef(onEnded);
  ended.current = onEnded;
  useEffect(() => {
    if (final && !reported.current) {
      reported.current = true;
      ended.current(job);
    }
  }, [final, job]);
  const percent = final && job.state === 'succeeded' ? 100 : Math.round(job.progressPercent);
  const elapsed = jobElapsedMs(job);
  return (
    <div className="flex min-w-64 flex-1 flex-wrap items-center gap-3" data-testid="deps-install-job" data-job-id={job.id} data-state={job.state}>
      <StateChip state={job.state} />
      <Link href={jobHref(job.id)} className="text-sm text-primary underline-offset-4 hover:underline">
        {job.title}
      </Link>
      <span className="text-xs text-muted-foreground">
        {stageLabel(job)}
        {elapsed !== null && final ? ` · ${formatDuration(elapsed)}` : ''}
      </span>
      <div className="flex min-w-40 flex-1 items-center gap-2">
        <Progress value={percent} label={`Progress of ${job.title}`} />
        <span className="w-10 text-right text-xs text-muted-foreground" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {percent}%
        </span>
      </div>
      {job.state === 'failed' && job.error ? <ErrorNote error={job.error} className="basis-full" /> : null}
    </div>
  );
}
