// The dependency check's input: schema-only, for the contract and the browser.
import { z } from 'zod';

const KIB = 1024;
/** A skill-relative path: forward slashes, no absolute path, no `..`, no NUL or control characters. */
const RELATIVE_PATH = /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[^\0-\x1f\\]{1,512}$/;

export const depsCheckInput = z
  .strictObject({
    skillMd: z
      .string()
      .max(256 * KIB, 'SKILL.md is limited to 256 KiB')
      .optional()
      .describe('The SKILL.md text: deps: and exclude_deps: are read from its front matter'),
    files: z
      .array(
        z.strictObject({
          path: z.string().regex(RELATIVE_PATH, 'A skill-relative path such as scripts/run.py (no leading /, no ..)'),
          content: z.string().max(512 * KIB, 'A script is limited to 512 KiB'),
        }),
      )
      .max(500, 'At most 500 files')
      .optional()
      .describe('The skill’s script files, scanned for imports, requires and shebangs'),
    deps: z.array(z.string().min(1).max(256)).max(200, 'At most 200 dependencies').optional().describe('Extra specs to check (pip:x, npm:y, system:z …)'),
  })
  .refine((v) => v.skillMd !== undefined || (v.files?.length ?? 0) > 0 || (v.deps?.length ?? 0) > 0, {
    message: 'Give a SKILL.md, script files or a list of deps',
  });
export type DepsCheckInput = z.infer<typeof depsCheckInput>;
