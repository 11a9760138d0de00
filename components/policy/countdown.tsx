'use client';

import { useEffect, useState } from 'react';
import { cn } from '../ui/cn';

/** Seconds left until `iso`, updated every second; "expired" at zero. */
export function Countdown({ iso, className }: { iso: string; className?: string }) {
  const end = Date.parse(iso);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => {
      const n = Date.now();
      setNow(n);
      if (n >= end) clearInterval(t);
    }, 1000);
    return () => clearInterval(t);
  }, [end]);
  const left = Math.max(0, Math.ceil((end - now) / 1000));
  const text = left === 0 ? 'expired' : left >= 60 ? `${Math.floor(left / 60)}m ${String(left % 60).padStart(2, '0')}s` : `${left}s`;
  return (
    <time
      dateTime={iso}
      title={new Date(iso).toLocaleString()}
      className={cn('font-mono tabular-nums', left <= 15 && 'font-semibold text-destructive', className)}
    >
      {text}
      {left > 0 ? <span className="sr-only"> left</span> : null}
    </time>
  );
}
