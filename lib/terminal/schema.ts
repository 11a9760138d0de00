// The terminal's API shapes. Schema-only: the console imports these for its types.
import { z } from 'zod';

export const terminalTicketInput = z.strictObject({
  sessionId: z.uuid('Not a terminal session id.').optional().describe('Re-attach to this live session of yours instead of opening a new shell'),
  shared: z
    .literal(true)
    .optional()
    .describe(
      'Attach to a sandbox that belongs to someone else (an agent or another person) on purpose: its files and programs are untrusted, and your personal variables are not given to the shell',
    ),
});

export const terminalTicketOut = z.object({
  ticket: z.string().describe('Single use, valid about 60 s, bound to you, this sandbox and your Origin: pass it as ?ticket= on /ws/terminal'),
  sessionId: z.string().nullable().describe('The session the ticket re-attaches to (null: a new shell)'),
  expiresAt: z.string(),
  idleSeconds: z.number().int().describe('No input for this long ends the session (the sandbox config’s terminal idle disconnect)'),
  persistent: z.boolean().describe('Whether the shell survives a restart of Skilldock'),
  sharedWith: z.string().nullable().describe('Whose sandbox this is when it is not yours (agent:<id>, user:<id>, or unknown): show it next to the terminal'),
});

export const terminalSessionOut = z.object({
  id: z.string(),
  user: z.string(),
  userId: z.string(),
  sandboxId: z.string().describe('The instance id (<config id>~<sandbox id>)'),
  startedAt: z.string(),
  lastInputAt: z.string(),
  idleSeconds: z.number().int(),
  bytesIn: z.number().int(),
  bytesOut: z.number().int(),
  attached: z.boolean().describe('A socket is attached now (false: waiting for a re-attach within the grace period)'),
  cols: z.number().int(),
  rows: z.number().int(),
});

export const terminalSessionListOut = z.object({ items: z.array(terminalSessionOut) });
export const terminalSessionParams = z.strictObject({ id: z.uuid('Not a terminal session id.') });

export const terminalTranscriptOut = z.object({
  id: z.string().describe('The terminal session id'),
  user: z.string(),
  userId: z.string(),
  sandboxId: z.string().describe('The instance id (<config id>~<sandbox id>)'),
  startedAt: z.string(),
  endedAt: z.string().nullable().describe('Null while the session is open (or when a crash cut it short)'),
  reason: z.string().nullable().describe('Why the session ended (idle, exited, closed, revoked, shutdown…)'),
  truncated: z.boolean().describe('The transcript reached its size cap; later input and output were not recorded'),
  bytes: z.number().int().describe('Size of the asciicast file'),
});

export const terminalTranscriptListOut = z.object({ items: z.array(terminalTranscriptOut) });
export const terminalTranscriptParams = z.strictObject({ id: z.uuid('Not a terminal session id.') });
