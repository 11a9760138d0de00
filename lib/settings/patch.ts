// No Node imports: the Settings forms validate with these schemas in the browser.
import { z } from 'zod';

type Defaulted = z.ZodDefault<z.ZodType>;

/**
 * The PUT body of a settings area: any subset of its fields; the rest keep their stored values. Built
 * from the fields without their defaults: zod 4 applies a default even inside .partial(), which would
 * reset every absent field.
 */
export function settingsPatch<S extends Record<string, Defaulted>>(shape: S) {
  return z.strictObject(
    Object.fromEntries(
      Object.entries(shape).map(([k, v]) => [
        k,
        v
          .unwrap()
          .optional()
          .describe(v.description ?? k),
      ]),
    ) as { [K in keyof S]: z.ZodOptional<ReturnType<S[K]['unwrap']>> },
  );
}
