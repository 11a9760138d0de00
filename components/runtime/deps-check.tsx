'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, ListChecks } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { checkDepsAction, installDepsAction } from '@/app/(console)/runtime/actions';
import { ApiError } from '../api';
import { jobKey } from '../jobs/queries';
import { useJobStartedToast } from '../jobs/use-start-job';
import type { Job } from '../jobs/view';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Confirm } from '../ui/dialog';
import { Label } from '../ui/input';
import { Tip } from '../ui/misc';
import { callAction } from '../use-operation';
import { useCan } from '../viewer';
import type { SkillFolder } from './deps-files';
import { DepsFolderField } from './deps-folder-field';
import { DepsInstallJob } from './deps-install-job';
import { DepsReportDetails, RequestError } from './deps-report';
import type { DepsReport } from './deps-results';
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

/** "Check a skill's dependencies": paste SKILL.md and/or choose the skill folder, see each dependency's status, install the missing ones. */
export function DepsCheckCard() {
  const id = useId();
  const qc = useQueryClient();
  const can = useCan('packages.write');
  const startedToast = useJobStartedToast();
  const [text, setText] = useState('');
  const [folder, setFolder] = useState<SkillFolder | null>(null);
  const [result, setResult] = useState<{ body: CheckBody; report: DepsReport } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [installJob, setInstallJob] = useState<{ job: Job; body: CheckBody; ended: boolean } | null>(null);

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

  const onCheck = (e?: React.FormEvent) => {
    e?.preventDefault();
    if (!body || check.isPending) return;
    install.reset();
    check.mutate(body);
  };

  const report = result?.report;
  const stale = !!result && !sameBody(result.body, body);
  const toInstall = report?.deps.filter((d) => d.status === 'missing' && d.manager !== 'github') ?? [];
  const installing = !!installJob && !installJob.ended;

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

          <DepsFolderField
            id={id}
            folder={folder}
            onRead={(f) => {
              setFolder(f);
              // The folder's SKILL.md fills the text box only when nothing was pasted.
              if (f.skillMd !== null && !text.trim()) setText(f.skillMd);
            }}
            onForget={() => setFolder(null)}
          />

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
              <DepsReportDetails report={report} stale={stale} />

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
          {installJob ? <DepsInstallJob key={installJob.job.id} initial={installJob.job} onEnded={onJobEnded} /> : null}
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
