'use client';

import { DEFAULT_TEXT_FILE_TYPES } from '@/lib/settings/import-policy';
import { ListField } from '../forms/fields';
import type { draftFields } from '../forms/use-settings-draft';
import type { SkillsSettingsForm } from '../skills/settings-form';
import { Button } from '../ui/button';
import { CheckField } from '../ui/input';

/** Settings → Skills, import policy: whether archives may be uploaded, and which files an import may hold. */
export function ImportPolicyFields({ form, fields: f }: { form: SkillsSettingsForm; fields: ReturnType<typeof draftFields<SkillsSettingsForm>> }) {
  return (
    <>
      <CheckField
        id="sk-allow-uploads"
        label="Allow uploaded archives"
        hint="Off: the console and the API refuse skill archive uploads before storing any byte; imports from git, URLs and ClawHub go on."
        {...f.check('allowUploadedArchives')}
      />
      <CheckField
        id="sk-allow-binaries"
        label="Allow binary files"
        hint="Accept every file an import holds, native executables (ELF, Mach-O, PE) and archives included. Off: files are judged by their content."
        {...f.check('allowBinaryFiles')}
      />
      <div className="grid content-start gap-2">
        <ListField
          label="Allowed file types"
          id="sk-file-types"
          hint="Extensions of text files an import may hold; their content must be UTF-8 text. Files without an extension and dotfiles pass when they are text."
          rows={5}
          placeholder="md, txt, py, sh"
          disabled={form.allowBinaryFiles}
          {...f.text('allowedFileTypes')}
        />
        <div>
          <Button
            type="button"
            size="sm"
            variant="outline"
            data-testid="sk-file-types-default"
            disabled={form.allowBinaryFiles}
            onClick={() => f.set('allowedFileTypes', DEFAULT_TEXT_FILE_TYPES.join(', '))}
          >
            Restore the default list
          </Button>
        </div>
      </div>
      <ListField
        label="Allowed binary file types"
        id="sk-binary-types"
        hint="Extensions accepted whatever their content, e.g. png, pdf. A native executable is still refused unless binary files are allowed."
        rows={2}
        placeholder="e.g. png, jpg, pdf"
        disabled={form.allowBinaryFiles}
        {...f.text('allowedBinaryFileTypes')}
      />
    </>
  );
}
