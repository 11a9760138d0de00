'use client';

import '@xterm/xterm/css/xterm.css';
import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { Terminal } from '@xterm/xterm';
import { Copy, Search } from 'lucide-react';
import { useTheme } from 'next-themes';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../ui/button';
import { copyText } from '../ui/copy-button';
import type { GetTicket, TerminalStatus } from './protocol';
import { SearchBox } from './search-box';
import { StatusLine } from './status-line';
import { exposeTestHook } from './test-hook';
import { TerminalSocket } from './use-terminal-socket';
import { xtermTheme } from './xterm-theme';

function openLink(uri: string): void {
  if (!/^https?:\/\//i.test(uri)) return;
  window.open(uri, '_blank', 'noopener,noreferrer');
}

const isSearchShortcut = (e: KeyboardEvent | React.KeyboardEvent) => (e.ctrlKey || e.metaKey) && e.shiftKey && e.key.toLowerCase() === 'f';

function safeFit(fit: FitAddon): void {
  try {
    fit.fit();
  } catch {
    // A hidden or zero-sized container has no dimensions to fit to; the next resize fits it.
  }
}

/** The open terminal: xterm in the card, its socket, search, copy and the status line. */
export function LiveTerminal({ instanceId, getTicket }: { instanceId: string; getTicket: GetTicket }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const termRef = useRef<Terminal | null>(null);
  const socketRef = useRef<TerminalSocket | null>(null);
  const [search, setSearch] = useState<SearchAddon | null>(null);
  const [searchOpen, setSearchOpen] = useState(false);
  const [hasSelection, setHasSelection] = useState(false);
  const [status, setStatus] = useState<TerminalStatus>({ state: 'connecting' });
  const [persistent, setPersistent] = useState<boolean | null>(null);
  const { resolvedTheme } = useTheme();
  const themeRef = useRef(resolvedTheme);
  themeRef.current = resolvedTheme;
  const getTicketRef = useRef(getTicket);
  getTicketRef.current = getTicket;

  useEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    let cleanup: (() => void) | undefined;
    // Created in a frame, not in the effect body: under StrictMode's mount-unmount-mount the first
    // frame is cancelled before it runs, so only one terminal and one socket ever exist.
    const frame = requestAnimationFrame(() => {
      const term = new Terminal({
        cursorBlink: true,
        fontSize: 13,
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
        scrollback: 5000,
        theme: xtermTheme(themeRef.current),
      });
      const fit = new FitAddon();
      const searchAddon = new SearchAddon();
      term.loadAddon(fit);
      term.loadAddon(searchAddon);
      term.loadAddon(new WebLinksAddon((_e, uri) => openLink(uri)));
      term.open(el);
      safeFit(fit);
      termRef.current = term;
      setSearch(searchAddon);

      // The socket starts only now, so no output can arrive before the terminal is there to show it.
      const socket = new TerminalSocket({
        instanceId,
        getTicket: (sessionId) => getTicketRef.current(sessionId),
        onOutput: (bytes) => term.write(bytes),
        onStatus: setStatus,
        onNewSession: () => term.reset(),
        onTicket: (t) => setPersistent(t.persistent),
        size: () => ({ cols: term.cols, rows: term.rows }),
      });
      socketRef.current = socket;
      const subs = [
        term.onData((d) => socket.sendText(d)),
        term.onBinary((d) => socket.sendBinary(d)),
        term.onResize(({ cols, rows }) => socket.resize(cols, rows)),
        term.onSelectionChange(() => setHasSelection(term.hasSelection())),
      ];
      term.attachCustomKeyEventHandler((e) => {
        if (e.type === 'keydown' && isSearchShortcut(e)) {
          e.preventDefault();
          setSearchOpen(true);
          return false;
        }
        return true;
      });
      let fitFrame = 0;
      const ro = new ResizeObserver(() => {
        cancelAnimationFrame(fitFrame);
        fitFrame = requestAnimationFrame(() => safeFit(fit));
      });
      ro.observe(el);
      const unexpose = exposeTestHook(term, socket);
      socket.start();
      term.focus();
      cleanup = () => {
        cancelAnimationFrame(fitFrame);
        ro.disconnect();
        unexpose();
        for (const s of subs) s.dispose();
        socket.dispose();
        term.dispose();
        termRef.current = null;
        socketRef.current = null;
      };
    });
    return () => {
      cancelAnimationFrame(frame);
      cleanup?.();
    };
  }, [instanceId]);

  useEffect(() => {
    if (termRef.current) termRef.current.options.theme = xtermTheme(resolvedTheme);
  }, [resolvedTheme]);

  const copySelection = () => {
    const text = termRef.current?.getSelection() ?? '';
    if (!text) return;
    copyText(text).then(
      () => toast.success('Copied the selection'),
      (e: Error) => toast.error('Could not copy', { description: e.message }),
    );
  };
  const again = (fn: (s: TerminalSocket) => void) => {
    const s = socketRef.current;
    if (!s) return;
    fn(s);
    termRef.current?.focus();
  };

  return (
    <div
      role="group"
      aria-label="Terminal"
      className="grid min-w-0 gap-2"
      onKeyDown={(e) => {
        if (isSearchShortcut(e)) {
          e.preventDefault();
          setSearchOpen(true);
        }
      }}
    >
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" size="sm" variant="outline" aria-pressed={searchOpen} onClick={() => setSearchOpen((o) => !o)} title="Search (Ctrl+Shift+F)">
          <Search aria-hidden /> Search
        </Button>
        <Button type="button" size="sm" variant="outline" disabled={!hasSelection} onClick={copySelection} title="Copy the selected text">
          <Copy aria-hidden /> Copy
        </Button>
        {searchOpen && search ? (
          <SearchBox
            search={search}
            onClose={() => {
              setSearchOpen(false);
              termRef.current?.focus();
            }}
          />
        ) : null}
      </div>
      {/* The fit addon measures the element xterm opens in, so the padding and border sit outside it. */}
      <div className="min-w-0 rounded-md border bg-[#ffffff] p-1 dark:bg-[#0f1216]">
        <div ref={containerRef} data-testid="terminal" className="h-[350px] w-full min-w-0 overflow-hidden sm:h-[410px]" />
      </div>
      <StatusLine status={status} persistent={persistent} onReconnect={() => again((s) => s.reconnect())} onOpenNew={() => again((s) => s.openNew())} />
    </div>
  );
}
