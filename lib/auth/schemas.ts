import { z } from 'zod';
import { ALL_PERMISSIONS, ROLES } from './permissions';

export const emailSchema = z
  .email('Enter a valid email address')
  .max(254)
  .transform((e) => e.toLowerCase());
export const passwordSchema = z.string().min(12, 'Use at least 12 characters').max(256, 'Use at most 256 characters');
export const roleSchema = z.enum(ROLES);
export const nameSchema = z.string().trim().min(1, 'Enter a name').max(100);

export const setupInput = z.strictObject({ email: emailSchema, name: nameSchema, password: passwordSchema });
/** What the setup page and POST /api/setup send: the owner, and the one-time token from the server log or data dir. */
export const setupTokenSchema = z.string().trim().min(1, 'Enter the setup token').max(200);
export const setupRequest = z.strictObject({ ...setupInput.shape, token: setupTokenSchema.optional() });
export const setupForm = z.strictObject({ ...setupInput.shape, token: setupTokenSchema });
export const changeOwnPasswordInput = z.strictObject({
  currentPassword: z.string().min(1, 'Enter your current password').max(256),
  newPassword: passwordSchema,
});
export const createUserInput = z.strictObject({ email: emailSchema, name: nameSchema, role: roleSchema, password: passwordSchema });
export const updateUserInput = z
  .strictObject({ role: roleSchema.optional(), disabled: z.boolean().optional(), name: nameSchema.optional() })
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change');
export const resetPasswordInput = z.strictObject({ password: passwordSchema });
export const loginInput = z.strictObject({ email: emailSchema, password: z.string().min(1).max(256) });

export const createTokenInput = z.strictObject({
  name: nameSchema,
  permissions: z
    .array(z.enum(ALL_PERMISSIONS as [string, ...string[]]))
    .min(1, 'Choose at least one permission')
    .max(64),
  expiresInDays: z.number().int().min(1).max(3650).nullable().default(90),
  /** Limits the token to the gateway routes of these agents (it then carries agents.read only). */
  agentIds: z
    .array(z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'Not an agent id.'))
    .min(1, 'Name at least one agent, or leave the token unscoped')
    .max(100)
    .nullable()
    .optional(),
});

export type SetupInput = z.infer<typeof setupInput>;
export type CreateUserInput = z.infer<typeof createUserInput>;
export type UpdateUserInput = z.infer<typeof updateUserInput>;
export type CreateTokenInput = z.infer<typeof createTokenInput>;
