// Response schemas of the agents and gateway API.
import { z } from 'zod';

const time = z.string().describe('ISO 8601 time');
const budgetOut = z.object({ maxSkills: z.number().int(), maxChars: z.number().int() });
const names = z.array(z.string());

export const agentOut = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  sandboxConfigId: z.string().nullable(),
  skills: names.nullable().describe('null: inherits the defaults'),
  inheritsDefaults: z.boolean(),
  denySkills: names,
  budget: budgetOut.nullable(),
  riskProfile: z.string().nullable().describe('The exec risk profile; null: balanced'),
  policyOverrides: z.record(z.string(), z.unknown()).nullable().describe('Exec rules layered over the profile'),
  revision: z.number().int().describe('Send it back with an edit'),
  warnings: z.array(z.string()).describe('Names no known skill has (kept)'),
  createdAt: time,
  createdBy: z.string(),
  updatedAt: time,
  updatedBy: z.string(),
});

export const agentListOut = z.object({ items: z.array(agentOut) });

export const defaultsOut = z.object({
  skills: names.nullable().describe('null: unrestricted'),
  unrestricted: z.boolean(),
  budget: budgetOut.nullable(),
  revision: z.number().int().describe('0 until the defaults are first saved'),
  warnings: z.array(z.string()),
  updatedAt: time.nullable(),
  updatedBy: z.string().nullable(),
});

const targetOut = z.object({ kind: z.enum(['host', 'sandbox']), configId: z.string().nullable(), label: z.string() });

const effectiveSkillOut = z.object({
  name: z.string(),
  description: z.string(),
  location: z.string().describe("SKILL.md's path on the agent's target"),
  skillDir: z.string(),
  env: names.describe('Env names the skill needs'),
  contentHash: z.string().optional().describe("The served files' content hash: unchanged, the skill's files are unchanged"),
});

export const gatewaySkillsOut = z.object({
  agentId: z.string(),
  version: z.string().describe('Also the ETag; send it as If-None-Match to get 304 while nothing changed'),
  target: targetOut,
  skills: z.array(effectiveSkillOut).describe("The skills in the model's prompt catalog"),
  commands: z
    .array(
      effectiveSkillOut.extend({
        modelInvocable: z.boolean().describe('false: disable-model-invocation is true; the skill is not in the prompt catalog, only a user runs it'),
        userInvocable: z.literal(true),
        commandDispatch: z.literal('tool').nullable().describe('"tool": the slash command bypasses the model and calls commandTool'),
        commandTool: z.string().nullable().describe('The tool a tool-dispatched command calls'),
        commandArgMode: z.literal('raw').describe('The argument text reaches the tool as typed'),
      }),
    )
    .describe('The user-invocable skills (slash commands), whether or not the model may also invoke them; a user-invocable: false skill is never here'),
  prompt: z.object({
    text: z.string().describe('The <available_skills> catalog exactly as the prompt carries it'),
    chars: z.number().int().describe('The length of text'),
    tokens: z.number().int().describe('About four characters a token'),
    form: z.enum(['full', 'compact']),
    truncated: z.boolean(),
    included: names,
    cut: names,
  }),
});

export const gatewaySkillOut = z.object({
  agentId: z.string(),
  version: z.string(),
  name: z.string(),
  location: z.string(),
  skillDir: z.string(),
  skillMd: z.string(),
  files: z.array(
    z.object({
      path: z.string(),
      size: z.number(),
      sha256: z.string(),
      mode: z.number().int().describe('Permission bits (an executable script keeps its x bit)'),
    }),
  ),
});

export const gatewayBundleOut = z.object({
  agentId: z.string(),
  version: z.string(),
  skills: z.array(
    z.object({
      name: z.string(),
      contentHash: z.string().describe('sha256 over the sorted "path:sha256" lines of the files served'),
      files: z.array(
        z.object({
          path: z.string(),
          size: z.number(),
          sha256: z.string(),
          mode: z.number().int(),
          contentBase64: z.string().nullable().describe('null past the size limits: read that file through the file route'),
        }),
      ),
    }),
  ),
  missing: z.array(z.string()).describe("Names asked for that are not among the agent's skills (now)"),
});

export const gatewayFileOut = z.object({
  path: z.string(),
  size: z.number(),
  sha256: z.string(),
  binary: z.boolean(),
  content: z.string().nullable().describe('null for a binary file'),
  contentBase64: z.string().nullable().describe('A binary file, base64-encoded'),
});

const traceStepOut = z.object({
  step: z.enum(['found', 'copy', 'usable', 'eligible', 'installed', 'allowed', 'enabled', 'model-invocable', 'prompt', 'policy']),
  pass: z.boolean(),
  skipped: z.boolean().optional(),
  warning: z.boolean().optional().describe('Passes, but some of what the skill documents would not run (the exec policy step)'),
  detail: z.string(),
});

export const explainOut = z.object({
  agentId: z.string(),
  version: z.string(),
  target: targetOut,
  budget: budgetOut,
  effective: names,
  prompt: z.object({ chars: z.number(), tokens: z.number(), form: z.enum(['full', 'compact']), truncated: z.boolean(), included: names, cut: names }),
  traces: z.array(
    z.object({
      name: z.string(),
      excluded: z.boolean().describe('The allowlist excludes it: only the rule is shown'),
      effective: z.boolean(),
      failedAt: traceStepOut.shape.step.nullable(),
      copies: z.array(z.object({ source: z.string(), root: z.string(), dir: z.string(), won: z.boolean() })),
      steps: z.array(traceStepOut),
    }),
  ),
});

const costOut = z.object({ chars: z.number().int(), tokens: z.number().int(), skills: z.number().int() });

export const previewOut = z.object({
  items: z.array(
    z.object({
      agentId: z.string(),
      revision: z.number().int(),
      stale: z.boolean().describe('The agent changed since the revision sent: a save would be refused'),
      changed: z.boolean(),
      gained: names,
      lost: names,
      prompt: z.object({ before: costOut, after: costOut.extend({ truncated: z.boolean() }) }),
      warnings: z.array(z.string()),
    }),
  ),
});

export const saveAllowlistsOut = z.object({
  items: z.array(z.object({ agentId: z.string(), revision: z.number().int(), changed: z.boolean() })),
  changed: z.number().int(),
  warnings: z.array(z.string()),
});
