'use client';

import { Copy, Eye, FlaskConical, Pencil, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { Badge } from '../ui/badge';
import { Button, buttonVariants } from '../ui/button';
import { Card } from '../ui/card';
import { Tip } from '../ui/misc';
import { SkeletonRows, Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { RelativeTime } from '../ui/time';
import type { ProfileView } from './queries';

const profileHref = (name: string) => `/policy/profiles/${encodeURIComponent(name)}`;

function commandsSummary(p: ProfileView): string {
  const list = p.rules.allowedCommands;
  if (list.includes('*')) return list.length > 1 ? `any, +${list.length - 1} named` : 'any';
  return `${list.length} allowed`;
}

/** How a row opens: a pencil only where the viewer may edit it; a preset is viewed, or duplicated into a new profile. */
function OpenActions({ p, canWrite, why }: { p: ProfileView; canWrite?: boolean; why?: string }) {
  const icon = buttonVariants({ variant: 'ghost', size: 'icon' });
  const editable = !p.builtin && canWrite;
  return (
    <>
      <Link
        className={icon}
        href={profileHref(p.name)}
        aria-label={`${editable ? 'Edit' : 'View'} ${p.name}`}
        title={editable ? 'Edit' : p.builtin ? 'View (presets are read-only)' : 'View'}
      >
        {editable ? <Pencil aria-hidden /> : <Eye aria-hidden />}
      </Link>
      {p.builtin ? (
        <Tip content={why}>
          {canWrite ? (
            <Link
              className={icon}
              href={`/policy/new?from=${encodeURIComponent(p.name)}`}
              aria-label={`Duplicate ${p.name}`}
              title="Duplicate into a new profile"
            >
              <Copy aria-hidden />
            </Link>
          ) : (
            <Button variant="ghost" size="icon" disabled aria-label={`Duplicate ${p.name}`}>
              <Copy aria-hidden />
            </Button>
          )}
        </Tip>
      ) : null}
    </>
  );
}

/** Profiles as a table: name and badges, commands, deny groups changed, the agents using each, actions. */
export function ProfileTable({
  title,
  rows,
  loading,
  defaultProfile,
  canWrite,
  why,
  onDelete,
}: {
  title: string;
  rows: ProfileView[];
  loading: boolean;
  defaultProfile?: string;
  canWrite?: boolean;
  why?: string;
  onDelete?: (p: ProfileView) => void;
}) {
  return (
    <Card>
      <h2 className="px-5 pt-4 pb-2 text-base font-semibold">{title}</h2>
      <Table aria-label={title}>
        <THead>
          <TR className="hover:bg-transparent">
            <TH>Name</TH>
            <TH>Commands</TH>
            <TH>Deny groups changed</TH>
            <TH>Used by</TH>
            <TH>Updated</TH>
            <TH className="text-right">
              <span className="sr-only">Actions</span>
            </TH>
          </TR>
        </THead>
        <TBody>
          {loading ? <SkeletonRows rows={3} cols={6} /> : null}
          {!loading && rows.length === 0 ? (
            <TR>
              <TD colSpan={6} className="py-6 text-center text-sm text-muted-foreground">
                No profile matches the search.
              </TD>
            </TR>
          ) : null}
          {rows.map((p) => (
            <TR key={p.name} data-profile={p.name}>
              <TD className="max-w-80">
                <div className="flex flex-wrap items-center gap-2">
                  <Link href={profileHref(p.name)} className="font-mono font-medium hover:underline">
                    {p.name}
                  </Link>
                  {p.builtin ? <Badge variant="secondary">preset · read-only</Badge> : null}
                  {p.name === defaultProfile ? <Badge>default</Badge> : null}
                </div>
                {p.description ? <p className="mt-0.5 line-clamp-2 text-xs text-muted-foreground">{p.description}</p> : null}
              </TD>
              <TD className="text-xs">{commandsSummary(p)}</TD>
              <TD className="text-xs tabular-nums">{Object.keys(p.rules.denyGroups).length}</TD>
              <TD className="max-w-56 text-xs" data-slot="used-by">
                {p.usedBy.length ? p.usedBy.join(', ') : <span className="text-muted-foreground">no agents</span>}
              </TD>
              <TD className="text-xs">{p.builtin ? <span className="text-muted-foreground">built in</span> : <RelativeTime iso={p.updatedAt} />}</TD>
              <TD className="text-right">
                <div className="flex justify-end gap-1">
                  <Link
                    className={buttonVariants({ variant: 'ghost', size: 'icon' })}
                    href={`/policy/tester?profile=${encodeURIComponent(p.name)}`}
                    aria-label={`Test commands against ${p.name}`}
                    title="Test commands against it"
                  >
                    <FlaskConical aria-hidden />
                  </Link>
                  <OpenActions p={p} canWrite={canWrite} why={why} />
                  {onDelete ? (
                    <Tip content={why}>
                      <Button variant="ghost" size="icon" disabled={!canWrite} aria-label={`Delete ${p.name}`} onClick={() => onDelete(p)}>
                        <Trash2 aria-hidden />
                      </Button>
                    </Tip>
                  ) : null}
                </div>
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
    </Card>
  );
}
