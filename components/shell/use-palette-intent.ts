'use client';

import { useSearchParams } from 'next/navigation';
import { useEffect, useRef } from 'react';

/**
 * A command-palette link such as `?new=1` asks a page to open one of its dialogs: `open` runs once
 * (only when `allowed`; a read-only role just lands on the page), then the parameter leaves the
 * URL so a reload or a shared link does not open the dialog again.
 */
export function usePaletteIntent(param: string, allowed: boolean, open: () => void) {
  const wanted = useSearchParams().get(param) === '1';
  // The latest `open` without making it a dependency: a new closure each render must not reopen the dialog.
  const latestOpen = useRef(open);
  latestOpen.current = open;
  useEffect(() => {
    if (!wanted) return;
    if (allowed) latestOpen.current();
    const url = new URL(window.location.href);
    url.searchParams.delete(param);
    window.history.replaceState(window.history.state, '', url.pathname + url.search);
  }, [wanted, allowed, param]);
}
