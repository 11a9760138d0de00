'use client';

import { RotateCcw, Save } from 'lucide-react';
import { Button } from '../ui/button';
import { Tip } from '../ui/misc';

/** The foot of a settings form: what is unsaved (or why it cannot be saved), Discard, and Save with the reason it is blocked. */
export function SettingsSaveBar(props: {
  valid: boolean;
  /** Labels of the fields that differ from the stored settings. */
  changed: string[];
  disabled: boolean;
  discardDisabled: boolean;
  onDiscard: () => void;
  /** Why Save is unavailable (shown as its tooltip); null when it can be pressed. */
  blocked: string | null | undefined;
  saving: boolean;
}) {
  return (
    <div className="mt-6 flex flex-wrap items-center justify-end gap-2 border-t pt-4">
      <span className="mr-auto text-xs text-muted-foreground" aria-live="polite">
        {!props.valid ? 'Fix the fields marked in red to save' : props.changed.length ? `Unsaved: ${props.changed.join(', ')}` : 'No unsaved changes'}
      </span>
      <Button type="button" variant="outline" disabled={props.disabled || props.discardDisabled} onClick={props.onDiscard}>
        <RotateCcw aria-hidden /> Discard
      </Button>
      <Tip content={props.blocked}>
        <Button type="submit" disabled={props.disabled || !!props.blocked}>
          <Save aria-hidden /> {props.saving ? 'Saving…' : 'Save'}
        </Button>
      </Tip>
    </div>
  );
}

/** Why a settings form cannot be saved now, or undefined when it can. */
export function saveBlockedReason(can: { allowed: boolean; why?: string }, valid: boolean, changedCount: number): string | undefined {
  return !can.allowed ? can.why : !valid ? 'Fix the fields marked in red first.' : !changedCount ? 'Nothing has changed.' : undefined;
}
