'use client';

import { useQuery } from '@tanstack/react-query';
import { Activity, ArrowRight, ArrowUpCircle, Package, Puzzle } from 'lucide-react';
import Link from 'next/link';
import { jobsApi } from '@/lib/api/contracts/jobs';
import { packagesApi } from '@/lib/api/contracts/packages';
import { get } from '../api';
import { PageHeader } from '../shell/shell';
import { listSkills, skillListKey } from '../skills/queries';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Skeleton } from '../ui/misc';
import { useViewer } from '../viewer';
import { nextSteps } from './next-steps';

const ALL_SKILLS = { status: 'all', q: '', source: '' };
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function useOverviewData(can: (p: string) => boolean) {
  const packages = useQuery({
    queryKey: ['packages', 'list', 'managed'],
    queryFn: ({ signal }) => get(packagesApi.listPackages, { query: { managed: 'true' }, signal }),
    enabled: can('packages.read'),
    staleTime: 30_000,
  });
  const updates = useQuery({
    queryKey: ['packages', 'updates'],
    queryFn: ({ signal }) => get(packagesApi.packageUpdates, { signal }),
    enabled: can('packages.read'),
  });
  const skills = useQuery({
    queryKey: skillListKey(ALL_SKILLS),
    queryFn: ({ signal }) => listSkills(ALL_SKILLS, signal),
    enabled: can('skills.read'),
  });
  const running = useQuery({
    queryKey: ['jobs', { view: 'overview', state: 'running' }],
    queryFn: ({ signal }) => get(jobsApi.listJobs, { query: { state: 'running', limit: 100 }, signal }),
    enabled: can('jobs.read'),
  });
  const failed = useQuery({
    queryKey: ['jobs', { view: 'overview', state: 'failed' }],
    queryFn: ({ signal }) => get(jobsApi.listJobs, { query: { state: 'failed', limit: 100 }, signal }),
    enabled: can('jobs.read'),
  });
  return { packages, updates, skills, running, failed };
}

/** The console's landing page: what is installed and running at a glance, and what to do next. */
export function OverviewPage() {
  const viewer = useViewer();
  const can = (p: string) => viewer.permissions.includes(p);
  const d = useOverviewData(can);
  const skills = d.skills.data?.counts;
  const updates = d.updates.data?.updates.length;
  const running = d.running.data?.items.length;
  const failed = d.failed.data?.items.length;
  const steps = nextSteps({ can, skills: skills?.all, needsSetup: skills?.['needs-setup'], updates, failed });
  const stats = [
    {
      label: 'Managed packages',
      icon: Package,
      href: '/runtime?tab=packages',
      value: d.packages.data?.items.length,
      note: 'installed through Skilldock',
      show: can('packages.read'),
      loading: d.packages.isPending,
    },
    {
      label: 'Updates',
      icon: ArrowUpCircle,
      href: '/runtime?tab=updates',
      value: updates,
      note: updates === 0 ? 'everything is up to date' : 'available',
      show: can('packages.read'),
      loading: d.updates.isPending,
    },
    {
      label: 'Skills',
      icon: Puzzle,
      href: '/skills',
      value: skills?.all,
      note: skills ? `${skills.ready} ready, ${skills['needs-setup']} need setup, ${skills.blocked} blocked` : '',
      show: can('skills.read'),
      loading: d.skills.isPending,
    },
    {
      label: 'Running jobs',
      icon: Activity,
      href: '/jobs?state=running',
      value: running,
      note: failed ? `${plural(failed, 'failed job')} in the history` : 'no failed jobs',
      show: can('jobs.read'),
      loading: d.running.isPending,
    },
  ].filter((s) => s.show);
  return (
    <>
      <PageHeader title="Overview" description="What this instance runs, and what to do next." />
      <section aria-label="At a glance" className="mb-6 grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {stats.map((s) => (
          <Link key={s.label} href={s.href} className="rounded-lg focus-visible:outline-2 focus-visible:outline-ring">
            <Card className="h-full transition-colors hover:bg-accent/40">
              <CardHeader className="flex-row items-center justify-between">
                <CardTitle className="text-sm font-medium text-muted-foreground">{s.label}</CardTitle>
                <s.icon aria-hidden className="size-4 text-muted-foreground" />
              </CardHeader>
              <CardContent>
                {s.loading ? (
                  <Skeleton className="h-8 w-16" />
                ) : (
                  <p className="text-2xl font-semibold tabular-nums" data-testid={`overview-${s.label.toLowerCase().replaceAll(' ', '-')}`}>
                    {s.value ?? '–'}
                  </p>
                )}
                <p className="mt-1 text-xs text-muted-foreground">{s.note}</p>
              </CardContent>
            </Card>
          </Link>
        ))}
      </section>
      <Card>
        <CardHeader>
          <CardTitle>Next steps</CardTitle>
          <CardDescription>Suggestions from the current state; each opens the page that does it.</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-1">
            {steps.map((s) => (
              <li key={s.href}>
                <Link href={s.href} className="flex items-start gap-3 rounded-md px-2 py-2 hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring">
                  <ArrowRight aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
                  <span className="min-w-0">
                    <span className="block text-sm font-medium">{s.title}</span>
                    <span className="block text-sm text-muted-foreground">{s.detail}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </>
  );
}
