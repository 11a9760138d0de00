'use client';

import { Download } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { errorMessage } from '@/components/error-message';
import { isAppError } from '@/lib/core/errors';
import { parsePackageSpec } from '@/lib/runtime/spec';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Input, Label, Select } from '../ui/input';
import { ErrorNote, Tip } from '../ui/misc';
import { useCan } from '../viewer';

const PREFIXES = ['pip', 'npm', 'system'] as const;
export type Prefix = (typeof PREFIXES)[number];
const TYPED_PREFIX = /^(pip|npm|system|apt|apk|github):/;
const PLACEHOLDER: Record<Prefix, string> = { pip: 'e.g. requests==2.31.0', npm: 'e.g. is-number@7.0.0', system: 'e.g. ffmpeg' };

/** The full spec: the typed text when it names its own prefix, else the selected prefix before it. */
export function fullSpec(prefix: Prefix, text: string): string {
  const t = text.trim();
  if (!t || TYPED_PREFIX.test(t)) return t;
  return `${prefix}:${t}`;
}

/** The same grammar check the server runs (lib/runtime/spec.ts), with its exact message. */
function validate(spec: string): string | undefined {
  if (!spec) return undefined;
  try {
    const parsed = parsePackageSpec(spec);
    if (parsed.manager === 'github') return 'GitHub-release installs are not available here yet; use pip:, npm: or a system package.';
    return undefined;
  } catch (e) {
    if (isAppError(e)) return e.message;
    return errorMessage(e);
  }
}

/** Install a package by spec; validated as you type, started as a job. */
export function InstallBox({
  onInstall,
  busy,
  error,
  prefix: follow = 'npm',
}: {
  onInstall: (spec: string) => Promise<unknown>;
  busy: boolean;
  error: unknown;
  /** The manager of the tab in view: the prefix follows it until the user picks or types another. */
  prefix?: Prefix;
}) {
  const can = useCan('packages.write');
  const [prefix, setPrefix] = useState<Prefix>(follow);
  useEffect(() => setPrefix(follow), [follow]);
  const [text, setText] = useState('');
  const id = useId();
  const spec = fullSpec(prefix, text);
  const problem = useMemo(() => validate(spec), [spec]);
  const disabled = !can.allowed || busy || !spec || !!problem;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (disabled) return;
    try {
      await onInstall(spec);
      setText('');
    } catch {
      /* shown below from the mutation's error */
    }
  };

  const onText = (v: string) => {
    setText(v);
    const m = /^(pip|npm|system):/.exec(v.trim());
    if (m) setPrefix(m[1] as Prefix);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Install a package</CardTitle>
        <CardDescription>Installs into Skilldock’s runtime dir as a job; skills find it on their PATH, PYTHONPATH or NODE_PATH.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(e) => void submit(e)} className="grid gap-2" noValidate>
          <Label htmlFor={`${id}-spec`}>Package spec</Label>
          <div className="flex flex-wrap items-start gap-2">
            <Select aria-label="Package manager" value={prefix} onChange={(e) => setPrefix(e.target.value as Prefix)} className="w-28" disabled={!can.allowed}>
              {PREFIXES.map((p) => (
                <option key={p} value={p}>
                  {p}:
                </option>
              ))}
            </Select>
            <Input
              id={`${id}-spec`}
              value={text}
              onChange={(e) => onText(e.target.value)}
              placeholder={PLACEHOLDER[prefix]}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={!!problem || undefined}
              aria-describedby={`${id}-help`}
              disabled={!can.allowed}
              className="min-w-56 flex-1 font-mono"
            />
            <Tip content={can.why}>
              <Button type="submit" disabled={disabled}>
                <Download aria-hidden /> {busy ? 'Starting…' : 'Install'}
              </Button>
            </Tip>
          </div>
          <div id={`${id}-help`} className="grid gap-1 text-xs">
            {problem ? (
              <p role="alert" className="text-destructive">
                {problem}
              </p>
            ) : spec ? (
              <p className="text-muted-foreground">
                Will install <code className="rounded bg-muted px-1 py-0.5 font-mono text-foreground">{spec}</code>
              </p>
            ) : null}
            <p className="text-muted-foreground">
              Forms: <code className="font-mono">pip:requests==2.31.0</code>, <code className="font-mono">npm:@scope/name@1.2.3</code>,{' '}
              <code className="font-mono">system:ffmpeg</code> or a bare name (= system). Pick a prefix on the left, or type it yourself.
            </p>
          </div>
          {error ? <ErrorNote error={error} /> : null}
        </form>
      </CardContent>
    </Card>
  );
}
