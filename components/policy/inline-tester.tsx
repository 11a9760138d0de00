'use client';

import { useState } from 'react';
import type { ProfileRules } from '@/lib/policy/types';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Input } from '../ui/input';
import { ErrorNote } from '../ui/misc';
import { DecisionBanner } from './evaluation-view';
import { useLiveEvaluation } from './use-live-evaluation';

/** One command decided live under the form's unsaved rules (sent inline; nothing is saved or run). */
export function InlineTester({ rules, valid }: { rules: ProfileRules; valid: boolean }) {
  const [command, setCommand] = useState('');
  const live = useLiveEvaluation(valid && command.trim() ? { command, profile: rules } : null);
  return (
    <Card data-slot="inline-tester">
      <CardHeader>
        <CardTitle>Try a command against these edits</CardTitle>
        <CardDescription>Decided with the rules as they are in this form, before they are saved.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <Input
          aria-label="Command to try"
          className="font-mono"
          spellCheck={false}
          autoComplete="off"
          placeholder="git push --force"
          value={command}
          onChange={(e) => setCommand(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              live.now();
            }
          }}
        />
        <ErrorNote error={live.error} />
        {live.result && command.trim() ? <DecisionBanner evaluation={live.result} stale={live.stale || live.pending} /> : null}
      </CardContent>
    </Card>
  );
}
