'use client';

import { Layers } from 'lucide-react';
import Link from 'next/link';
import { TD, TR } from '../ui/table';
import { SkillEmoji, StatusChip, VerdictChip } from './chips';
import { EnableToggle } from './enable-toggle';
import { highlightOf, Marked, truncate } from './highlight';
import { UpdateBadge } from './updates/update-badge';
import { type SkillSummary, skillHref } from './view';

/** One skill: emoji, name, description (or the search's matching snippet), readiness, verdict, shadowing and the enable switch. */
export function SkillRow({ skill: s }: { skill: SkillSummary }) {
  const name = highlightOf(s.highlights, 'name');
  const description = highlightOf(s.highlights, 'description');
  const body = highlightOf(s.highlights, 'body');
  return (
    <TR aria-label={s.name} data-testid="skill-row" data-skill-id={s.id} data-status={s.status} className="group">
      <TD className="w-full max-w-0 py-2.5">
        <div className="flex min-w-0 items-start gap-3">
          <SkillEmoji emoji={s.emoji} />
          <div className="grid min-w-0 gap-0.5">
            <Link href={skillHref(s.id)} className="w-fit truncate font-medium hover:underline focus-visible:outline-2 focus-visible:outline-ring">
              {name ? <Marked text={name.text} ranges={name.ranges} /> : s.name}
            </Link>
            <UpdateBadge source={s.source} dir={s.dir} />
            <p className="line-clamp-2 text-xs text-muted-foreground" title={s.description}>
              {description ? <Marked text={description.text} ranges={description.ranges} /> : truncate(s.description || 'No description.')}
            </p>
            {body && !name && !description ? (
              <p className="truncate text-xs text-muted-foreground" data-testid="body-snippet">
                <span className="mr-1 font-mono text-[11px] text-foreground/70">SKILL.md</span>
                <Marked text={body.text} ranges={body.ranges} />
              </p>
            ) : null}
          </div>
        </div>
      </TD>
      <TD className="hidden md:table-cell">
        <StatusChip status={s.status} reason={s.reasons[0]} riskAccepted={s.acknowledged && (s.verdict === 'critical' || s.verdict === 'error')} />
      </TD>
      <TD>
        <VerdictChip verdict={s.verdict} acknowledged={s.acknowledged} counts={s.findingCounts} />
      </TD>
      <TD className="hidden text-xs text-muted-foreground lg:table-cell">
        {s.shadowedCount ? (
          <span
            className="inline-flex items-center gap-1 whitespace-nowrap"
            title={`This copy wins over ${s.shadowedCount} lower-precedence ${s.shadowedCount === 1 ? 'copy' : 'copies'} of the same name.`}
            data-testid="shadowed-hint"
          >
            <Layers aria-hidden className="size-3.5" /> shadows {s.shadowedCount}
          </span>
        ) : null}
      </TD>
      <TD className="w-12 text-right">
        <EnableToggle name={s.name} skillKey={s.skillKey} enabled={!s.disabled} />
      </TD>
    </TR>
  );
}
