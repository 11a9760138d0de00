'use client';

import { Download, ListTree } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { errorMessage } from '@/components/error-message';
import { parsePackageSpec } from '@/lib/runtime/spec';
import { Button } from '../ui/button';
import { Input, Label } from '../ui/input';
import { Tip } from '../ui/misc';
import { useCan } from '../viewer';

/** `owner/repo[@tag]` checked with the server's own grammar (github: prefix, install context). */
export function parseGithubInput(text: string): { repo: string; tag?: string; spec: string } | { error: string } | null {
  const t = text.trim().replace(/^github:/i, '');
  if (!t) return null;
  try {
    const p = parsePackageSpec(`github:${t}`, { context: 'install' });
    return { repo: p.name, tag: p.version, spec: `github:${p.name}${p.version ? `@${p.version}` : ''}` };
  } catch (e) {
    return { error: errorMessage(e) };
  }
}

/** The GitHub tab's input: browse a repository's releases, or install its latest (or a named tag) directly. */
export function GithubInstallBox({ onBrowse, onInstall, busy }: { onBrowse: (repo: string) => void; onInstall: (spec: string) => void; busy: boolean }) {
  const can = useCan('packages.write');
  const [text, setText] = useState('');
  const id = useId();
  const parsed = useMemo(() => parseGithubInput(text), [text]);
  const ok = parsed && 'repo' in parsed ? parsed : null;
  const problem = parsed && 'error' in parsed ? parsed.error : null;

  return (
    <form
      className="grid gap-1.5"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (ok && can.allowed) onBrowse(ok.repo);
      }}
    >
      <Label htmlFor={`${id}-repo`}>GitHub repository</Label>
      <div className="flex flex-wrap items-start gap-2">
        <Input
          id={`${id}-repo`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="owner/repo or owner/repo@v1.2.3"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={!!problem || undefined}
          aria-describedby={`${id}-help`}
          className="min-w-56 flex-1 font-mono"
        />
        <Tip content={can.why}>
          <Button type="submit" variant="outline" disabled={!ok || !can.allowed}>
            <ListTree aria-hidden /> Browse releases
          </Button>
        </Tip>
        <Tip content={can.why}>
          <Button type="button" disabled={!ok || !can.allowed || busy} onClick={() => ok && onInstall(ok.spec)}>
            <Download aria-hidden /> {busy ? 'Starting…' : 'Install'}
          </Button>
        </Tip>
      </div>
      <div id={`${id}-help`} className="text-xs">
        {problem ? (
          <p role="alert" className="text-destructive">
            {problem}
          </p>
        ) : ok ? (
          <p className="text-muted-foreground">
            Install will fetch <code className="rounded bg-muted px-1 py-0.5 font-mono text-foreground">{ok.spec}</code>
            {ok.tag ? '' : ' (the latest stable release)'}; Browse releases shows every release with the asset it would pick and why.
          </p>
        ) : (
          <p className="text-muted-foreground">
            A release binary from GitHub, e.g. <code className="font-mono">cli/cli</code> or <code className="font-mono">BurntSushi/ripgrep@14.1.0</code>. It is
            checksum-verified, checked for this host’s architecture and libc, and smoke-tested before it goes on PATH.
          </p>
        )}
      </div>
    </form>
  );
}
