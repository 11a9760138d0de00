'use client';

import { useMemo, useState } from 'react';
import { Button } from '../ui/button';
import { SkeletonRows, Table, TH, THead, TR } from '../ui/table';
import { SkillRow } from './skill-row';
import { type SkillRootView, type SkillSummary, SOURCE_LABELS, SOURCE_ORDER, type SourceKind } from './view';

/** Rows rendered at first and per "Show more": past this a long catalog pages instead of rendering everything. */
export const PAGE_SIZE = 100;

interface Group {
  source: SourceKind;
  label: string;
  paths: string[];
  skills: SkillSummary[];
}

/** Skills grouped by source, highest precedence first; with a search the groups keep the ranking inside them. */
export function groupBySource(skills: SkillSummary[], roots: SkillRootView[]): Group[] {
  return SOURCE_ORDER.map((source) => ({
    source,
    label: SOURCE_LABELS[source],
    paths: roots.filter((r) => r.kind === source).map((r) => r.path),
    skills: skills.filter((s) => s.source === source),
  })).filter((g) => g.skills.length);
}

const COLS = 5;

function Head() {
  return (
    <THead>
      <TR className="hover:bg-transparent">
        <TH>Skill</TH>
        <TH className="hidden md:table-cell">Status</TH>
        <TH>Scanner</TH>
        <TH className="hidden lg:table-cell">
          <span className="sr-only">Shadowed copies</span>
        </TH>
        <TH className="text-right">Enabled</TH>
      </TR>
    </THead>
  );
}

/** The skills table: a section per source (its header names the root), paged past {@link PAGE_SIZE} rows. */
export function SkillList({ skills, roots, loading, searching }: { skills: SkillSummary[]; roots: SkillRootView[]; loading: boolean; searching: boolean }) {
  const [limit, setLimit] = useState(PAGE_SIZE);
  const groups = useMemo(() => groupBySource(skills, roots), [skills, roots]);
  let budget = limit;
  const shown = groups.map((g) => {
    const rows = g.skills.slice(0, Math.max(0, budget));
    budget -= rows.length;
    return { ...g, rows };
  });
  const hidden = skills.length - Math.min(skills.length, limit);
  return (
    <div className="grid gap-3">
      <Table aria-label={searching ? 'Skills matching the search' : 'Skills'} data-testid="skills-table">
        <Head />
        {loading ? (
          <tbody>
            <SkeletonRows rows={6} cols={COLS} />
          </tbody>
        ) : (
          shown
            .filter((g) => g.rows.length)
            .map((g) => (
              <tbody key={g.source} data-testid="skill-group" data-source={g.source} className="[&_tr:last-child]:border-0">
                <tr className="border-b bg-muted/40">
                  <th colSpan={COLS} scope="rowgroup" className="px-3 py-1.5 text-left text-xs font-medium">
                    <span className="text-foreground">{g.label}</span>
                    <span className="ml-2 tabular-nums text-muted-foreground">{g.skills.length}</span>
                    {g.paths.length ? (
                      <span className="ml-3 hidden truncate font-mono font-normal text-muted-foreground sm:inline">{g.paths.join(' · ')}</span>
                    ) : null}
                  </th>
                </tr>
                {g.rows.map((s) => (
                  <SkillRow key={s.id} skill={s} />
                ))}
              </tbody>
            ))
        )}
      </Table>
      {hidden > 0 ? (
        <div className="flex items-center justify-center gap-3 text-sm text-muted-foreground">
          Showing {limit} of {skills.length}
          <Button variant="outline" size="sm" onClick={() => setLimit((l) => l + PAGE_SIZE)}>
            Show {Math.min(PAGE_SIZE, hidden)} more
          </Button>
        </div>
      ) : null}
    </div>
  );
}
