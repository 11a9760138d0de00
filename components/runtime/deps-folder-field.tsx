'use client';

import { FolderOpen, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { errorMessage } from '@/components/error-message';
import { Button } from '../ui/button';
import { ErrorNote } from '../ui/misc';
import { MAX_FILES, readSkillFolder, type SkillFolder } from './deps-files';

/** "Skill folder": choose a folder, read its scripts (and SKILL.md) in the browser, show what will be sent. */
export function DepsFolderField({
  id,
  folder,
  onRead,
  onForget,
}: {
  id: string;
  folder: SkillFolder | null;
  onRead: (f: SkillFolder) => void;
  onForget: () => void;
}) {
  const [reading, setReading] = useState(false);
  const [readError, setReadError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const onFolder = async (list: FileList | null) => {
    if (!list?.length) return;
    setReading(true);
    setReadError(null);
    try {
      const f = await readSkillFolder(list);
      onRead(f);
      if (!f.files.length && f.skillMd === null)
        setReadError(`No SKILL.md and no script files (.py, .js, .ts … or #! scripts) were found in ${f.folder || 'the folder'}.`);
    } catch (e) {
      setReadError(`Could not read the folder: ${errorMessage(e)}`);
    } finally {
      setReading(false);
      // Choosing the same folder again must fire onChange again.
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <div className="grid gap-1.5">
      <span className="text-sm font-medium leading-none" id={`${id}-folder-label`}>
        Skill folder <span className="font-normal text-muted-foreground">(optional)</span>
      </span>
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={fileInput}
          id={`${id}-folder`}
          type="file"
          multiple
          className="sr-only"
          aria-labelledby={`${id}-folder-label`}
          onChange={(e) => void onFolder(e.target.files)}
          {...({ webkitdirectory: '', directory: '' } as Record<string, string>)}
        />
        <Button type="button" variant="outline" size="sm" onClick={() => fileInput.current?.click()} disabled={reading}>
          <FolderOpen aria-hidden /> {reading ? 'Reading…' : folder ? 'Choose another folder' : 'Choose folder…'}
        </Button>
        {folder ? (
          <>
            <span className="text-sm" data-testid="deps-folder-summary">
              <span className="font-mono">{folder.folder || 'folder'}</span>: {folder.files.length} script {folder.files.length === 1 ? 'file' : 'files'}
              {folder.skillMd !== null ? ' and SKILL.md' : ''}
              {folder.ignored ? <span className="text-muted-foreground"> · {folder.ignored} other files not sent</span> : null}
            </span>
            <Button type="button" variant="ghost" size="sm" aria-label="Forget the chosen folder" onClick={onForget}>
              <X aria-hidden />
            </Button>
          </>
        ) : (
          <span className="text-xs text-muted-foreground">
            Scripts (.py .js .mjs .cjs .ts .mts .cts .jsx .tsx and #! files) up to 512 KiB each, at most {MAX_FILES}; read in your browser.
          </span>
        )}
      </div>
      {folder?.skipped.length ? (
        <details className="text-xs text-muted-foreground">
          <summary className="cursor-pointer">{folder.skipped.length} files skipped</summary>
          <ul className="mt-1 grid gap-0.5 pl-4">
            {folder.skipped.slice(0, 50).map((s) => (
              <li key={s.path}>
                <span className="font-mono">{s.path}</span> — {s.reason}
              </li>
            ))}
            {folder.skipped.length > 50 ? <li>… and {folder.skipped.length - 50} more</li> : null}
          </ul>
        </details>
      ) : null}
      {readError ? <ErrorNote error={readError} /> : null}
    </div>
  );
}
