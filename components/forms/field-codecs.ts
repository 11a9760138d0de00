// How each setting is held in a settings form — as the text a person types, or a switch — and
// turned back into a value for the server's schema to judge. A form is a table of these, one per
// field, instead of a hand-written pair of toForm/fromForm functions that must stay in step.

/** One field: the stored value as form text (or a switch), and the form text back as a raw value. */
export interface FieldCodec<V, T extends string | boolean> {
  toForm(value: V): T;
  fromForm(text: T): unknown;
  /** A whole-number field: text that is not one reaches the schema as text, to be named as such. */
  readonly wholeNumber?: true;
}

/** A whole number as typed, or the text itself so the schema refuses it as not a number. */
export const wholeNumberOf = (s: string): number | string => (/^\s*-?\d+\s*$/.test(s) ? Number(s) : s.trim());
/** The non-empty items of a list typed one per line (commas also split when `commas`). */
export const itemsOf = (s: string, commas = false): string[] =>
  s
    .split(commas ? /[\n,]+/ : /\r?\n/)
    .map((x) => x.trim())
    .filter(Boolean);
/** The words of a list typed with spaces or commas between them. */
export const wordsOf = (s: string): string[] => s.split(/[\s,]+/).filter(Boolean);

export const field = {
  wholeNumber: { toForm: (v: number) => String(v), fromForm: wholeNumberOf, wholeNumber: true } as FieldCodec<number, string>,
  text: { toForm: (v: string) => v, fromForm: (t: string) => t.trim() } as FieldCodec<string, string>,
  flag: { toForm: (v: boolean) => v, fromForm: (t: boolean) => t } as FieldCodec<boolean, boolean>,
  /** One item per line (`commas`: commas also separate items). */
  lines: (commas = false): FieldCodec<string[], string> => ({ toForm: (v) => v.join('\n'), fromForm: (t) => itemsOf(t, commas) }),
  /** Words separated by spaces or commas, shown joined by `joiner`. */
  words: (joiner: string): FieldCodec<string[], string> => ({ toForm: (v) => v.join(joiner), fromForm: wordsOf }),
};

// biome-ignore lint/suspicious/noExplicitAny: a table of codecs of any value type
type Codecs = Record<string, FieldCodec<any, string | boolean>>;
/** The form's values: each field's text or switch. */
export type FormOf<C extends Codecs> = { [K in keyof C]: ReturnType<C[K]['toForm']> };
/** The stored settings a table of codecs reads. */
export type StoredOf<C extends Codecs> = { [K in keyof C]: Parameters<C[K]['toForm']>[0] };

/** A form's two directions from its table, and which of its issues are text typed for a number. */
export function formCodec<C extends Codecs>(codecs: C) {
  const keys = Object.keys(codecs) as (keyof C & string)[];
  return {
    keys,
    toForm: (stored: StoredOf<C>): FormOf<C> => Object.fromEntries(keys.map((k) => [k, codecs[k]!.toForm(stored[k])])) as FormOf<C>,
    fromForm: (form: FormOf<C>): Record<keyof C, unknown> =>
      Object.fromEntries(keys.map((k) => [k, codecs[k]!.fromForm(form[k] as never)])) as Record<keyof C, unknown>,
    /** Whether an issue on `key` is about text typed where a whole number belongs. */
    notANumber: (key: string, raw: Record<string, unknown>): boolean => codecs[key]?.wholeNumber === true && typeof raw[key] === 'string',
  };
}

export const NOT_A_NUMBER = 'Enter a whole number';
