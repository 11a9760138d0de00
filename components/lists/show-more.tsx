'use client';

import { useState } from 'react';
import { Button } from '../ui/button';

const PAGE = 100;

/** The first `page` rows of a long list, and a way to show `page` more. */
export function usePagedRows<T>(rows: T[], page = PAGE) {
  const [shown, setShown] = useState(page);
  return { visible: rows.slice(0, shown), left: Math.max(0, rows.length - shown), more: () => setShown((n) => n + page) };
}

/** "Show more (N left)" below a paged table; nothing once every row is shown. */
export function ShowMore({ left, onMore, format = String }: { left: number; onMore: () => void; format?: (n: number) => string }) {
  if (left <= 0) return null;
  return (
    <div className="flex justify-center">
      <Button variant="outline" size="sm" onClick={onMore}>
        Show more ({format(left)} left)
      </Button>
    </div>
  );
}
