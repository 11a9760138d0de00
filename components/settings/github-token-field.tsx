'use client';

import { Trash2 } from 'lucide-react';
import type * as React from 'react';
import { Button } from '../ui/button';
import { Field, Input } from '../ui/input';

/** The GitHub token: write-only, "configured" when one is saved, with Remove/Keep for the saved one. */
export function GithubTokenField({
  token,
  onToken,
  removeToken,
  onRemoveToken,
  configured,
  hostChanged,
  error,
}: {
  token: string;
  onToken: (token: string) => void;
  removeToken: boolean;
  onRemoveToken: React.Dispatch<React.SetStateAction<boolean>>;
  configured: boolean;
  /** The API base URL now points at another host than the one the saved token is for. */
  hostChanged: boolean;
  error?: string;
}) {
  return (
    <Field
      label="Token"
      htmlFor="gh-token"
      error={error}
      hint={
        removeToken
          ? 'The saved token will be removed when you save.'
          : configured && !token && hostChanged
            ? 'The saved token belongs to the old API host and will be removed: enter a token for the new one.'
            : configured
              ? 'Configured — leave empty to keep it.'
              : 'Optional; raises the limit to 5,000 requests an hour. Stored encrypted.'
      }
    >
      <div className="flex gap-2">
        <Input
          id="gh-token"
          type="password"
          value={token}
          onChange={(e) => {
            onToken(e.target.value);
            onRemoveToken(false);
          }}
          placeholder={configured ? '•••••••• (configured)' : 'e.g. ghp_…'}
          autoComplete="new-password"
          aria-invalid={!!error}
        />
        {configured ? (
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              onRemoveToken((r) => !r);
              onToken('');
            }}
            aria-pressed={removeToken}
          >
            <Trash2 aria-hidden /> {removeToken ? 'Keep' : 'Remove'}
          </Button>
        ) : null}
      </div>
    </Field>
  );
}
