/** The audit page's API shapes, taken from the contracts' schemas (type-only), and its filters. */
import type { z } from 'zod';
import type { auditOut } from '@/lib/api/schemas';

export type AuditEntry = z.output<typeof auditOut>;
export interface AuditPage {
  items: AuditEntry[];
  nextBefore: number | null;
}

/** The filters, as kept in the URL: plain strings; from/to are ISO 8601 with an offset. */
export interface AuditFilters {
  actor: string;
  action: string;
  target: string;
  from: string;
  to: string;
}
export const FILTER_KEYS = ['actor', 'action', 'target', 'from', 'to'] as const;
export const NO_FILTERS: AuditFilters = { actor: '', action: '', target: '', from: '', to: '' };
export const PAGE_SIZE = 50;
