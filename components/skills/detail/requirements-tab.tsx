'use client';

import { CircleCheck, CircleMinus, CircleX, Download } from 'lucide-react';
import Link from 'next/link';
import { toast } from 'sonner';
import { errorMessage } from '@/components/error-message';
import { usePackageJob } from '../../runtime/queries';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Tip } from '../../ui/misc';
import { useCan } from '../../viewer';
import type { SkillDetailView } from '../view';
import { useFollowJob } from './job-follow';
import { MissingEnvField } from './missing-env-field';

const STEP_LABEL: Record<string, string> = {
  enabled: 'Enabled in its config entry',
  allowBundled: 'Allowed as a bundled skill',
  os: 'Runs on this platform',
  always: 'Marked always-on',
  bins: 'Required programs on PATH',
  anyBins: 'At least one of the programs on PATH',
  env: 'Required environment variables',
  config: 'Required gateway config',
  files: 'Required config files',
};

/** The gating trace as a checklist: each rule in order, passed, failed or skipped, with what it saw. */
function TraceChecklist({ skill: s }: { skill: SkillDetailView }) {
  return (
    <ol className="grid gap-2" aria-label="Eligibility checks" data-testid="gating-trace">
      {s.gating.trace.map((t, i) => {
        const Icon = t.skipped ? CircleMinus : t.pass ? CircleCheck : CircleX;
        return (
          <li key={`${t.step}:${i}`} className="flex items-start gap-2 text-sm" data-step={t.step} data-pass={t.pass} data-skipped={!!t.skipped}>
            <Icon
              aria-label={t.skipped ? 'skipped' : t.pass ? 'passed' : 'failed'}
              className={
                t.skipped
                  ? 'mt-0.5 size-4 shrink-0 text-muted-foreground'
                  : t.pass
                    ? 'mt-0.5 size-4 shrink-0 text-success'
                    : 'mt-0.5 size-4 shrink-0 text-destructive'
              }
            />
            <span className="grid">
              <span className={t.skipped ? 'text-muted-foreground' : 'font-medium'}>{STEP_LABEL[t.step] ?? t.step}</span>
              {t.detail ? <span className="text-xs text-muted-foreground">{t.detail}</span> : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** A missing program and the install specs that provide it (only those that map to a package Skilldock can install). */
function MissingBins({ skill: s }: { skill: SkillDetailView }) {
  const can = useCan('packages.write');
  const { follow, node } = useFollowJob();
  const install = usePackageJob(follow);
  const bins = [...s.gating.missing.bins, ...s.gating.missing.anyBins];
  if (!bins.length) return null;
  const specsFor = (bin: string) => s.manifest.install.filter((i) => i.packageSpec && (i.bins.includes(bin) || !i.bins.length));
  return (
    <div className="grid gap-2">
      <h3 className="text-sm font-medium">Missing programs</h3>
      <ul className="grid gap-2">
        {bins.map((bin) => {
          const specs = specsFor(bin);
          return (
            <li key={bin} className="flex flex-wrap items-center gap-2 rounded-md border px-3 py-2 text-sm" data-testid="missing-bin" data-bin={bin}>
              <code className="font-mono">{bin}</code>
              {s.gating.missing.anyBins.includes(bin) ? (
                <span className="text-xs text-muted-foreground">(any one of {s.gating.missing.anyBins.join(', ')})</span>
              ) : null}
              <span className="ml-auto flex flex-wrap gap-2">
                {specs.length ? (
                  specs.map((i) => (
                    <Tip key={i.packageSpec} content={can.why}>
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={!can.allowed || install.isPending}
                        onClick={() =>
                          install.mutate(
                            { action: 'install', spec: i.packageSpec! },
                            {
                              onError: (e) => toast.error(`Could not start installing ${i.packageSpec}`, { description: errorMessage(e) }),
                            },
                          )
                        }
                      >
                        <Download aria-hidden /> Install {i.packageSpec}
                      </Button>
                    </Tip>
                  ))
                ) : (
                  <span className="text-xs text-muted-foreground">
                    No install spec maps to a package here: install it on the host, or from{' '}
                    <Link href="/runtime" className="text-primary hover:underline">
                      Runtime &amp; Packages
                    </Link>
                    .
                  </span>
                )}
              </span>
            </li>
          );
        })}
      </ul>
      {node}
    </div>
  );
}

/** Why the skill is (not) eligible, and one-step fixes: install a program, set a variable, point at the config. */
export function RequirementsTab({ skill: s }: { skill: SkillDetailView }) {
  const missing = s.gating.missing;
  const nothingMissing =
    !missing.bins.length && !missing.anyBins.length && !missing.env.length && !missing.config.length && !missing.os.length && !missing.files?.length;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>Eligibility checks</CardTitle>
          <CardDescription>
            {s.eligible ? 'Every check passes: agents can load this skill.' : `Not eligible: ${s.reasons.join('; ') || 'see the checks below'}.`}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <TraceChecklist skill={s} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>What is missing</CardTitle>
          <CardDescription>
            {nothingMissing ? 'Nothing: every declared requirement is met.' : 'Fix these and the skill becomes ready within seconds.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <MissingBins skill={s} />
          {missing.env.length ? (
            <div className="grid gap-2">
              <h3 className="text-sm font-medium">Missing environment variables</h3>
              {missing.env.map((name) => (
                <MissingEnvField key={name} skill={s} name={name} />
              ))}
            </div>
          ) : null}
          {missing.config.length ? (
            <div className="grid gap-1 text-sm">
              <h3 className="font-medium">Missing gateway config</h3>
              <p className="text-muted-foreground">
                These paths must be truthy in the gateway config ({' '}
                <Link href="/settings#skills" className="text-primary hover:underline">
                  Settings → Skills
                </Link>{' '}
                ):{' '}
                {missing.config.map((c) => (
                  <code key={c} className="mx-0.5 rounded bg-muted px-1 font-mono text-xs text-foreground">
                    {c}
                  </code>
                ))}
              </p>
            </div>
          ) : null}
          {missing.files?.length ? (
            <div className="grid gap-1 text-sm" data-testid="missing-files">
              <h3 className="font-medium">Missing config files</h3>
              <p className="text-muted-foreground">
                These files must exist where the skill runs (&quot;~&quot; is the home folder):{' '}
                {missing.files.map((f) => (
                  <code key={f} className="mx-0.5 rounded bg-muted px-1 font-mono text-xs text-foreground">
                    {f}
                  </code>
                ))}
              </p>
            </div>
          ) : null}
          {missing.os.length ? (
            <p className="text-sm text-muted-foreground">Runs only on {missing.os.join(', ')}; the target where skills run here is another platform.</p>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
