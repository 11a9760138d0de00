import { z } from 'zod';
import { detectSystemManager } from '../runtime';
import { checkSpec } from './schemas';
import type { UpdateSource } from './updates-merge';

const SPEC = z.string().min(1, 'Give a package spec').max(256, 'A package spec has at most 256 characters');

/** The update source and key a spec names (pip:x, npm:x, apt:x, apk:x or a bare system name), or the reason it names none. */
export function updateTarget(raw: string): { source: UpdateSource; name: string } | { message: string } {
  const r = checkSpec(raw, 'update');
  if ('message' in r) return r;
  const { spec } = r;
  if (spec.manager === 'pip' || spec.manager === 'npm' || spec.manager === 'github') return { source: spec.manager, name: spec.name };
  const system = spec.systemManager ?? detectSystemManager();
  if (!system) return { message: `This host has no apt or apk, so ${raw} names no package here.` };
  return { source: system, name: spec.name };
}

const refineTarget = (raw: unknown, ctx: z.RefinementCtx, path: (string | number)[]) => {
  if (typeof raw !== 'string' || !raw || raw.length > 256) return;
  const t = updateTarget(raw);
  if ('message' in t) ctx.addIssue({ code: 'custom', path, message: t.message });
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
