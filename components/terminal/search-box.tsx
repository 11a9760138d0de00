'use client';

import type { SearchAddon } from '@xterm/addon-search';
import { ChevronDown, ChevronUp, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../ui/button';
import { Input } from '../ui/input';

/** Find in the terminal's scrollback: Enter for the next match, Shift+Enter for the previous one. */
export function SearchBox({ search, onClose }: { search: SearchAddon; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [missed, setMissed] = useState(false);
  const find = (dir: 'next' | 'prev', incremental = false) => {
    if (!query) return setMissed(false);
    const found = dir === 'next' ? search.findNext(query, { incremental }) : search.findPrevious(query);
    setMissed(!found);
  };
  const close = () => {
    search.clearDecorations();
    onClose();
  };
  return (
    <search className="flex flex-wrap items-center gap-1" aria-label="Search the terminal">
      <Input
        autoFocus
        type="search"
        aria-label="Search the terminal output"
        placeholder="Search output"
        className="h-8 w-44 min-w-0 flex-1 sm:flex-none"
        value={query}
        onChange={(e) => {
          const v = e.target.value;
          setQuery(v);
          if (!v) return setMissed(false);
          setMissed(!search.findNext(v, { incremental: true }));
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            find(e.shiftKey ? 'prev' : 'next');
          } else if (e.key === 'Escape') {
            e.preventDefault();
            close();
          }
        }}
      />
      <Button type="button" size="icon" variant="ghost" className="size-8" aria-label="Previous match" onClick={() => find('prev')}>
        <ChevronUp aria-hidden />
      </Button>
      <Button type="button" size="icon" variant="ghost" className="size-8" aria-label="Next match" onClick={() => find('next')}>
        <ChevronDown aria-hidden />
      </Button>
      <Button type="button" size="icon" variant="ghost" className="size-8" aria-label="Close search" onClick={close}>
        <X aria-hidden />
      </Button>
      {missed ? (
        <span role="status" className="text-xs text-muted-foreground">
          No match
        </span>
      ) : null}
    </search>
  );
}
