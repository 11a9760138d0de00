// No Node imports: the console's forms and the API contracts share these.
import { z } from 'zod';
import { updatePolicy } from '../../settings/skills-settings';

const SLUG = z.string().regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'a managed skill slug');

export const updatesCheckInput = z.strictObject({
  slugs: z.array(SLUG).min(1).max(500).optional().describe('Skills to check (default: every skill imported from ClawHub, git or a URL)'),
});
export const updatesApplyInput = z.strictObject({
  slugs: z.array(SLUG).min(1).max(500).optional().describe('Skills to update (default: every skill with an update waiting)'),
});
export const updatePolicyInput = z.union([
  z.strictObject({ kind: z.enum(['clawhub', 'git', 'url']), policy: updatePolicy }).describe('The policy of every skill from this kind of source'),
  z.strictObject({ slug: SLUG, policy: updatePolicy.nullable() }).describe('One skill’s own policy (null follows its source kind)'),
]);
export const updateSlugParams = z.strictObject({ slug: SLUG });
