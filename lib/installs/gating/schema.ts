// The answer of "is this skill eligible in each sandbox config's image": shared by the REST route,
// the OpenAPI document and the skill page. No Node imports: the console uses it too.
import { z } from 'zod';

export const configGatingOut = z.object({
  configId: z.string(),
  configName: z.string(),
  /** What was probed: the active snapshot's ref, or the base image. Null when the probe could not run. */
  image: z.string().nullable(),
  /** Null when the image could not be probed (see `error`). */
  eligible: z.boolean().nullable(),
  /** Why not, said of the sandbox: "missing bin ffprobe in sandbox python-tools". */
  reasons: z.array(z.string()),
  missingBins: z.array(z.string()),
  /** The skill is installed into this config (and in which state). */
  installState: z.string().nullable(),
  error: z.string().nullable(),
});

export const sandboxGatingOut = z.object({
  skillId: z.string(),
  skillKey: z.string(),
  /** The verdict on Skilldock's own host (the catalog's gating). */
  host: z.object({ eligible: z.boolean(), reasons: z.array(z.string()) }),
  /** One entry per Docker sandbox config (other backends have no image to probe). */
  configs: z.array(configGatingOut),
});
export type SandboxGatingOut = z.infer<typeof sandboxGatingOut>;
export type ConfigGatingOut = z.infer<typeof configGatingOut>;
