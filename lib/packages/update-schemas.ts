import { z } from 'zod';
import { checkSpec } from './schemas';

const SPEC = z.string().min(1, 'Give a package spec').max(256, 'A package spec has at most 256 characters');

// The spec's syntax only: which manager a bare system name means depends on the host, so the
// operation asks that (updateTarget) where the host is known.
const refineTarget = (raw: unknown, ctx: z.RefinementCtx, path: (string | number)[]) => {
  if (typeof raw !== 'string' || !raw || raw.length > 256) return;
  const r = checkSpec(raw, 'update');
  if ('message' in r) ctx.addIssue({ code: 'custom', path, message: r.message });
};

export const applyAllInput = z
  .strictObject({
    packages: z
      .array(SPEC)
      .max(500, 'At most 500 packages per Update All')
      .optional()
      .describe('Update specs (e.g. npm:is-number); empty or absent = every pending update that is not pinned'),
  })
  .superRefine((v, ctx) => (v.packages ?? []).forEach((p, i) => refineTarget(p, ctx, ['packages', i])));
export type ApplyAllInput = z.infer<typeof applyAllInput>;

export const pinInput = z
  .strictObject({
    spec: SPEC.describe('The package, e.g. pip:requests or npm:typescript'),
    pinned: z.boolean().describe('true holds the package: still checked, never offered by Update All'),
    reason: z.string().trim().max(200, 'At most 200 characters').optional(),
  })
  .superRefine((v, ctx) => refineTarget(v.spec, ctx, ['spec']));
export type PinInput = z.infer<typeof pinInput>;
