'use client';

import { DEFAULT_TEXT_FILE_TYPES } from '@/lib/settings/import-policy';
import type { SkillsSettingsForm } from '../skills/settings-form';
import { Button } from '../ui/button';
import { CheckField, Field } from '../ui/input';
import { Textarea } from '../ui/textarea';

type Set = <K extends keyof SkillsSettingsForm>(k: K, v: SkillsSettingsForm[K]) => void;

/** Settings → Skills, import policy: whether archives may be uploaded, and which files an import may hold. */
export function ImportPolicyFields({ form, set, errors }: { form: SkillsSettingsForm; set: Set; errors: Record<string, string> }) {
  const list = (k: 'allowedFileTypes' | 'allowedBinaryFileTypes', id: string, placeholder: string) => (
    <Textarea
      id={id}
      value={form[k]}
      onChange={(e) => set(k, e.target.value)}
      rows={k === 'allowedFileTypes' ? 5 : 2}
      spellCheck={false}
      className="font-mono text-xs"
      aria-invalid={!!errors[k]}
      placeholder={placeholder}
      disabled={form.allowBinaryFiles}
    />
  );
  return (
    <>
      <CheckField
        id="sk-allow-uploads"
        label="Allow uploaded archives"
        hint="Off: the console and the API refuse skill archive uploads before storing any byte; imports from git, URLs and ClawHub go on."
        checked={form.allowUploadedArchives}
        onChange={(e) => set('allowUploadedArchives', e.target.checked)}
      />
      <CheckField
        id="sk-allow-binaries"
        label="Allow binary files"
        hint="Accept every file an import holds, native executables (ELF, Mach-O, PE) and archives included. Off: files are judged by their content."
        checked={form.allowBinaryFiles}
        onChange={(e) => set('allowBinaryFiles', e.target.checked)}
      />
      <div className="grid content-start gap-2">
        <Field
          label="Allowed file types"
          htmlFor="sk-file-types"
          error={errors.allowedFileTypes}
          hint="Extensions of text files an import may hold; their content must be UTF-8 text. Files without an extension and dotfiles pass when they are text."
        >
          {list('allowedFileTypes', 'sk-file-types', 'md, txt, py, sh')}
        </Field>
        <div>
          <Button
            type="button"
            size="sm"
            variant="outline"
            data-testid="sk-file-types-default"
            disabled={form.allowBinaryFiles}
            onClick={() => set('allowedFileTypes', DEFAULT_TEXT_FILE_TYPES.join(', '))}
          >
            Restore the default list
          </Button>
        </div>
      </div>
      <Field
        label="Allowed binary file types"
        htmlFor="sk-binary-types"
        error={errors.allowedBinaryFileTypes}
        hint="Extensions accepted whatever their content, e.g. png, pdf. A native executable is still refused unless binary files are allowed."
      >
        {list('allowedBinaryFileTypes', 'sk-binary-types', 'e.g. png, jpg, pdf')}
      </Field>
    </>
  );
}
