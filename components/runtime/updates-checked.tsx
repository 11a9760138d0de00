'use client';

import { RelativeTime } from '../ui/time';
import type { UpdatesView } from './view';

type Source = UpdatesView['sources'][number];

/** A source's results count as one check with the newest when they are at most this much older. */
const SAME_CHECK_MS = 5 * 60_000;

const ms = (iso: string | null) => (iso ? Date.parse(iso) : Number.NEGATIVE_INFINITY);

/**
 * When updates were last looked for, and each source whose results are not from that look: its last
 * attempt failed, it never succeeded, or it succeeded earlier than the others. One time per thing
 * shown, each saying what it is, so the bar never contradicts the rows' own "Checked" times.
 */
export function checkTimes(view: Pick<UpdatesView, 'sources'>): { last: string | null; behind: Source[] } {
  const attempts = view.sources.map((s) => s.attemptedAt ?? s.checkedAt).filter((t): t is string => !!t);
  const last = attempts.sort().at(-1) ?? null;
  const behind = view.sources.filter((s) => s.error || !s.checkedAt || ms(last) - ms(s.checkedAt) > SAME_CHECK_MS);
  return { last, behind };
}

export function UpdatesChecked({ view }: { view: Pick<UpdatesView, 'sources'> }) {
  const { last, behind } = checkTimes(view);
  return (
    <span className="text-sm text-muted-foreground" data-testid="updates-checked">
      Last checked <RelativeTime iso={last} empty="never" />
      {behind.map((s) => (
        <span key={s.source} data-source={s.source}>
          {' · '}
          {s.source}:{' '}
          {s.error ? (
            <>
              failed <RelativeTime iso={s.attemptedAt} empty="at an unknown time" />, last succeeded <RelativeTime iso={s.checkedAt} empty="never" />
            </>
          ) : s.checkedAt ? (
            <>
              last succeeded <RelativeTime iso={s.checkedAt} />
            </>
          ) : (
            'never checked'
          )}
        </span>
      ))}
    </span>
  );
}
