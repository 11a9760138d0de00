'use client';

import { Field, Input } from '../../ui/input';
import type { ImportForm } from './form';

type Set = <K extends keyof ImportForm>(k: K, v: ImportForm[K]) => void;

const mono = 'font-mono';

export function GitFields({ form, set, errors, disabled }: { form: ImportForm; set: Set; errors: Record<string, string>; disabled?: boolean }) {
  return (
    <div className="grid gap-3">
      <Field
        label="Repository URL"
        htmlFor="imp-git-url"
        error={errors.gitUrl}
        hint="https:// URL of the repository. Local paths work only when an admin allows them (Settings → Skills)."
      >
        <Input
          id="imp-git-url"
          value={form.gitUrl}
          onChange={(e) => set('gitUrl', e.target.value)}
          placeholder="https://github.com/owner/skills.git"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={!!errors.gitUrl}
          disabled={disabled}
          className={mono}
          autoFocus
        />
      </Field>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Ref" htmlFor="imp-git-ref" error={errors.gitRef} hint="Branch, tag or commit; default branch if empty.">
          <Input
            id="imp-git-ref"
            value={form.gitRef}
            onChange={(e) => set('gitRef', e.target.value)}
            placeholder="main"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={!!errors.gitRef}
            disabled={disabled}
            className={mono}
          />
        </Field>
        <Field label="Folder in the repository" htmlFor="imp-git-subdir" error={errors.gitSubdir} hint="Where SKILL.md is; the root if empty.">
          <Input
            id="imp-git-subdir"
            value={form.gitSubdir}
            onChange={(e) => set('gitSubdir', e.target.value)}
            placeholder="skills/weather"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={!!errors.gitSubdir}
            disabled={disabled}
            className={mono}
          />
        </Field>
      </div>
    </div>
  );
}

export function UrlFields({ form, set, errors, disabled }: { form: ImportForm; set: Set; errors: Record<string, string>; disabled?: boolean }) {
  return (
    <Field
      label="Archive or SKILL.md URL"
      htmlFor="imp-url"
      error={errors.url}
      hint="http(s) URL of a .zip, a .tar.gz or a bare SKILL.md. Private and loopback addresses are refused unless an admin allows the host."
    >
      <Input
        id="imp-url"
        value={form.url}
        onChange={(e) => set('url', e.target.value)}
        placeholder="https://example.com/weather-skill.zip"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={!!errors.url}
        disabled={disabled}
        className={mono}
        autoFocus
      />
    </Field>
  );
}
