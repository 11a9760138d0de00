'use client';

import { ArrowUpCircle, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { Job } from '../../jobs/view';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Confirm } from '../../ui/dialog';
import { Tip } from '../../ui/misc';
import { Table, TBody, TD, TH, THead, TR } from '../../ui/table';
import { RelativeTime } from '../../ui/time';
import { useCan } from '../../viewer';
import { VerdictChip } from '../chips';
import { PolicySelect } from './policy-select';
import { type SkillUpdate, useApplyUpdates, useCheckUpdates, useSkillUpdates } from './queries';
import { useUpdateParam } from './use-update-param';

const KIND_LABEL = { clawhub: 'ClawHub', git: 'git', url: 'URL' } as const;
const STATUS = {
  available: { label: 'Update available', variant: 'default' },
  current: { label: 'Up to date', variant: 'success' },
  pinned: { label: 'Pinned', variant: 'secondary' },
  error: { label: 'Check failed', variant: 'destructive' },
  unchecked: { label: 'Not checked', variant: 'secondary' },
} as const;
const short = (ref: string | null) => (ref && /^[0-9a-f]{40,64}$/.test(ref) ? ref.slice(0, 12) : (ref ?? ''));

function Row({ u, onOpen }: { u: SkillUpdate; onOpen: (slug: string) => void }) {
  const s = STATUS[u.status];
  return (
    <TR data-testid="update-row" data-slug={u.slug} data-status={u.status}>
      <TD className="font-medium">
        {u.status === 'available' ? (
          <button type="button" className="hover:underline focus-visible:outline-2 focus-visible:outline-ring" onClick={() => onOpen(u.slug)}>
            {u.slug}
          </button>
        ) : (
          u.slug
        )}
        <div className="max-w-80 truncate text-xs font-normal text-muted-foreground" title={u.source}>
          {u.source}
        </div>
      </TD>
      <TD className="hidden font-mono text-xs md:table-cell">
        {u.version} · {short(u.installedRef)}
      </TD>
      <TD>
        <Badge variant={s.variant} title={u.error ?? undefined}>
          {s.label}
        </Badge>
        {u.status === 'available' ? <span className="ml-2 font-mono text-xs">{short(u.latestRef)}</span> : null}
      </TD>
      <TD>{u.verdict ? <VerdictChip verdict={u.verdict} counts={{ critical: u.critical, warn: 0 }} /> : null}</TD>
      <TD className="hidden text-xs text-muted-foreground lg:table-cell">
        <RelativeTime iso={u.checkedAt} empty="never" />
      </TD>
    </TR>
  );
}

/** Imported skills and their sources: check for newer versions, update all in one job, and the policy per source kind. */
export function UpdatesCard({ onJob }: { onJob: (job: Job) => void }) {
  const { data } = useSkillUpdates();
  const check = useCheckUpdates();
  const apply = useApplyUpdates();
  const can = useCan('skills.write');
  const [, open] = useUpdateParam();
  const [confirm, setConfirm] = useState(false);
  if (!data || data.items.length === 0) return null;
  const waiting = data.items.filter((i) => i.status === 'available');
  const applicable = waiting.filter((i) => i.verdict !== 'critical' && i.verdict !== 'error');
  const started = (what: string) => (job: Job) => {
    toast.success(what, { description: job.title });
    onJob(job);
  };
  return (
    <Card data-testid="updates-card">
      <CardHeader>
        <CardTitle>
          Updates from sources{' '}
          {waiting.length ? (
            <Badge className="ml-2" data-testid="updates-count">
              {waiting.length} available
            </Badge>
          ) : null}
        </CardTitle>
        <CardDescription>
          Skills imported from ClawHub, git or a URL. A newer version is scanned and compared before anything changes; checks run every{' '}
          {data.checkHours ? `${data.checkHours} h` : '— (periodic checks are off)'}.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4">
        <div className="flex flex-wrap items-center gap-2">
          <Tip content={can.why}>
            <Button
              variant="outline"
              disabled={!can.allowed || check.isPending}
              data-testid="updates-check"
              onClick={() =>
                check.mutate(undefined, {
                  onSuccess: started('Checking for updates'),
                  onError: (e) => toast.error('The check did not start', { description: e.message }),
                })
              }
            >
              <RefreshCw aria-hidden /> Check for updates
            </Button>
          </Tip>
          <Tip content={can.why ?? (applicable.length ? undefined : 'No update waiting that the scanner allows')}>
            <Button disabled={!can.allowed || !applicable.length || apply.isPending} onClick={() => setConfirm(true)} data-testid="updates-apply-all">
              <ArrowUpCircle aria-hidden /> Update all ({applicable.length})
            </Button>
          </Tip>
        </div>
        <Table aria-label="Imported skills and their updates">
          <THead>
            <TR className="hover:bg-transparent">
              <TH>Skill</TH>
              <TH className="hidden md:table-cell">Installed</TH>
              <TH>Update</TH>
              <TH>Scan of the update</TH>
              <TH className="hidden lg:table-cell">Checked</TH>
            </TR>
          </THead>
          <TBody>
            {data.items.map((u) => (
              <Row key={u.slug} u={u} onOpen={open} />
            ))}
          </TBody>
        </Table>
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <span className="text-muted-foreground">Policy by source:</span>
          {(['clawhub', 'git', 'url'] as const).map((k) => (
            <label key={k} className="flex items-center gap-2">
              {KIND_LABEL[k]}
              <PolicySelect target={{ kind: k }} value={data.policies[k]} disabled={!can.allowed} />
            </label>
          ))}
        </div>
        <Confirm
          open={confirm}
          onOpenChange={setConfirm}
          destructive={false}
          title={`Update ${applicable.length} skill${applicable.length === 1 ? '' : 's'}?`}
          description={
            <>
              {applicable.map((u) => `${u.slug} → ${short(u.latestRef)}`).join(', ')}. One job updates them one after another; a skill that fails does not stop
              the others. Earlier versions stay for rollback.
              {waiting.length > applicable.length ? ` ${waiting.length - applicable.length} update(s) with a critical scan are left out.` : ''}
            </>
          }
          confirmLabel="Update all"
          busy={apply.isPending}
          onConfirm={() =>
            apply.mutate(
              applicable.map((u) => u.slug),
              { onSuccess: started('Updating skills'), onError: (e) => toast.error('The update did not start', { description: e.message }) },
            )
          }
        />
      </CardContent>
    </Card>
  );
}
