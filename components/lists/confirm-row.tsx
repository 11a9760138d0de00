'use client';

import type * as React from 'react';
import { Confirm } from '../ui/dialog';

/**
 * The confirmation of an action on one row of a list (delete, forget, …): open while `row` is set,
 * closing clears it through `onClose`, and `onConfirm` gets the row it was opened for.
 */
export function ConfirmRow<T>({
  row,
  onClose,
  title,
  describe,
  confirmLabel,
  busy,
  onConfirm,
}: {
  row: T | null;
  onClose: () => void;
  title: string;
  /** What is lost, named for this row. */
  describe: (row: T) => React.ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: (row: T) => void;
}) {
  return (
    <Confirm
      open={row !== null}
      onOpenChange={(o) => !o && onClose()}
      title={title}
      description={row !== null ? describe(row) : null}
      confirmLabel={confirmLabel}
      busy={busy}
      onConfirm={() => row !== null && onConfirm(row)}
    />
  );
}
