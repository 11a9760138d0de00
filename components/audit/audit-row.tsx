'use client';

import { ChevronRight } from 'lucide-react';
import Link from 'next/link';
import { Badge } from '../ui/badge';
import { cn } from '../ui/cn';
import { TD, TR } from '../ui/table';
import { exactTime, RelativeTime } from '../ui/time';
import { AuditChanges } from './audit-changes';
import type { AuditEntry } from './view';

function Target({ e }: { e: AuditEntry }) {
  const id = e.targetId;
  return (
    <span className="flex min-w-0 items-center gap-1.5">
      <span className="text-muted-foreground">{e.targetType}</span>
      {id ? (
        e.targetType === 'job' ? (
          <Link
            href={`/jobs/${id}`}
            className="truncate font-mono text-xs text-primary underline-offset-4 hover:underline"
            title={id}
            onClick={(ev) => ev.stopPropagation()}
          >
            {id}
          </Link>
        ) : (
          <span className="truncate font-mono text-xs" title={id}>
            {id}
          </span>
        )
      ) : null}
    </span>
  );
}

/** One audit entry; its button (or a click on the row) unfolds the before/after comparison. */
export function AuditRow({ e, open, onToggle }: { e: AuditEntry; open: boolean; onToggle: () => void }) {
  const detailsId = `audit-entry-${e.id}`;
  return (
    <>
      <TR data-testid="audit-row" data-action={e.action} className={cn('cursor-pointer', open && 'bg-muted/40')} onClick={onToggle}>
        <TD className="w-10 pr-0">
          <button
            type="button"
            aria-expanded={open}
            aria-controls={open ? detailsId : undefined}
            aria-label={`Details of ${e.action} at ${exactTime(e.at)}`}
            onClick={(ev) => {
              ev.stopPropagation();
              onToggle();
            }}
            className="grid size-7 place-items-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground"
          >
            <ChevronRight className={cn('size-4 transition-transform', open && 'rotate-90')} aria-hidden />
          </button>
        </TD>
        <TD>
          <RelativeTime iso={e.at} />
        </TD>
        <TD className="max-w-56 truncate" title={e.actorLabel}>
          {e.actorLabel}
        </TD>
        <TD>
          <Badge variant="secondary" className="rounded-md font-mono font-normal">
            {e.action}
          </Badge>
        </TD>
        <TD className="max-w-72">
          <Target e={e} />
        </TD>
        <TD className="font-mono text-xs text-muted-foreground">{e.ip ?? '—'}</TD>
      </TR>
      {open ? (
        <TR className="bg-muted/20 hover:bg-muted/20">
          <TD colSpan={6} id={detailsId} className="px-4 pt-2 pb-4">
            <AuditChanges before={e.before} after={e.after} />
            <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-xs text-muted-foreground">
              <div className="flex gap-1.5">
                <dt>Entry</dt>
                <dd className="font-mono text-foreground">#{e.id}</dd>
              </div>
              <div className="flex gap-1.5">
                <dt>Time</dt>
                <dd className="font-mono text-foreground">{exactTime(e.at)}</dd>
              </div>
              {e.actorTokenId ? (
                <div className="flex gap-1.5">
                  <dt>Via API token</dt>
                  <dd className="font-mono text-foreground">{e.actorTokenId}</dd>
                </div>
              ) : null}
              {e.userAgent ? (
                <div className="flex min-w-0 gap-1.5">
                  <dt>User agent</dt>
                  <dd className="truncate text-foreground" title={e.userAgent}>
                    {e.userAgent}
                  </dd>
                </div>
              ) : null}
            </dl>
          </TD>
        </TR>
      ) : null}
    </>
  );
}
