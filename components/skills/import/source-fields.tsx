'use client';

import { TextField } from '../../forms/fields';
import { draftFields } from '../../forms/use-settings-draft';
import type { ImportForm } from './form';

type Set = <K extends keyof ImportForm>(k: K, v: ImportForm[K]) => void;
type Props = { form: ImportForm; set: Set; errors: Record<string, string>; disabled?: boolean };

const mono = 'font-mono';

export function GitFields({ form, set, errors, disabled }: Props) {
  const f = draftFields(form, set, errors);
  return (
    <div className="grid gap-3">
      <TextField
        label="Repository URL"
        id="imp-git-url"
        hint="https:// URL of the repository. Local paths work only when an admin allows them (Settings → Skills)."
        placeholder="https://github.com/owner/skills.git"
        disabled={disabled}
        className={mono}
        autoFocus
        {...f.text('gitUrl')}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Ref"
          id="imp-git-ref"
          hint="Branch, tag or commit; default branch if empty."
          placeholder="main"
          disabled={disabled}
          className={mono}
          {...f.text('gitRef')}
        />
        <TextField
          label="Folder in the repository"
          id="imp-git-subdir"
          hint="Where SKILL.md is; the root if empty."
          placeholder="skills/weather"
          disabled={disabled}
          className={mono}
          {...f.text('gitSubdir')}
        />
      </div>
    </div>
  );
}

export function UrlFields({ form, set, errors, disabled }: Props) {
  return (
    <TextField
      label="Archive or SKILL.md URL"
      id="imp-url"
      hint="http(s) URL of a .zip, a .tar.gz or a bare SKILL.md. Private and loopback addresses are refused unless an admin allows the host."
      placeholder="https://example.com/weather-skill.zip"
      disabled={disabled}
      className={mono}
      autoFocus
      {...draftFields(form, set, errors).text('url')}
    />
  );
}
