'use client';

import { Download, PackageCheck, RefreshCw } from 'lucide-react';
import { toast } from 'sonner';
import { errorMessage } from '@/components/error-message';
import { DepsTable, DiagnosticsList } from '../../runtime/deps-results';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { EmptyState, RetryableError, Tip } from '../../ui/misc';
import { SkeletonRows, Table, TBody } from '../../ui/table';
import { useCan } from '../../viewer';
import { useInstallSkillDeps, useSkillDeps } from '../queries';
import type { SkillDetailView } from '../view';
import { useFollowJob } from './job-follow';

/** Declared and detected dependencies, each checked in the target runtime; "Install missing" starts one job for all of them. */
export function DepsTab({ skill: s }: { skill: SkillDetailView }) {
  const can = useCan('packages.write');
  const deps = useSkillDeps(s.copy.id, true);
  const install = useInstallSkillDeps();
  const { follow, node } = useFollowJob();
  const r = deps.data;
  const missing = r?.missing ?? [];
  // The server refuses it too (scan_blocked); this says why before the click.
  const blocked = s.isWinner && s.status === 'blocked';
  const start = () =>
    install.mutate(s.copy.id, {
      onSuccess: (res) => {
        toast.success('Installing the missing dependencies', { description: `${res.children?.length ?? 0} packages, one job each.` });
        follow(res.job);
      },
      onError: (e) => toast.error('Could not start the install', { description: errorMessage(e) }),
    });
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <CardTitle>Dependencies</CardTitle>
          <CardDescription>
            Packages the skill declares (deps:) and those its scripts import, checked against what is installed for skills here.
          </CardDescription>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={() => void deps.refetch()} disabled={deps.isFetching}>
            <RefreshCw aria-hidden className={deps.isFetching ? 'animate-spin motion-reduce:animate-none' : undefined} /> Check again
          </Button>
          <Tip
            content={
              !can.allowed
                ? can.why
                : blocked
                  ? 'Blocked by critical scanner findings: an admin acknowledges them on the Findings tab before dependencies are installed.'
                  : !missing.length
                    ? 'Nothing is missing.'
                    : undefined
            }
          >
            <Button size="sm" onClick={start} disabled={!can.allowed || blocked || !missing.length || install.isPending} data-testid="install-missing">
              <Download aria-hidden /> {install.isPending ? 'Starting…' : missing.length ? `Install ${missing.length} missing` : 'Install missing'}
            </Button>
          </Tip>
        </div>
      </CardHeader>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-3">
        {deps.error ? (
          <RetryableError error={deps.error} onRetry={() => void deps.refetch()} />
        ) : !r ? (
          <Table>
            <TBody>
              <SkeletonRows rows={3} cols={4} />
            </TBody>
          </Table>
        ) : (
          <>
            {r.diagnostics?.length ? <DiagnosticsList diagnostics={r.diagnostics} /> : null}
            {r.deps.length ? (
              <DepsTable deps={r.deps} />
            ) : (
              <EmptyState icon={<PackageCheck />} title="No dependencies">
                The skill declares no packages and its scripts import none that need installing.
              </EmptyState>
            )}
            {r.installSpecs?.length ? (
              <div className="grid gap-1.5">
                <h3 className="text-sm font-medium">Install specs in SKILL.md</h3>
                <ul className="flex flex-wrap gap-2">
                  {r.installSpecs.map((i) => (
                    <li key={`${i.kind}:${i.spec}`}>
                      <Badge variant="outline" className="font-mono" title={i.bins.length ? `Provides ${i.bins.join(', ')}` : undefined}>
                        {i.kind} → {i.spec}
                      </Badge>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </>
        )}
      </CardContent>
      {node}
    </Card>
  );
}
