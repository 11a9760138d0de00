'use client';

import { FileArchive, UploadCloud, X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { Progress } from '../../ui/misc';
import { formatBytes } from './upload';

/** A drop zone that is also a file picker (click, Enter or Space); shows the file, its size and the upload's progress. */
export function UploadField({
  file,
  onFile,
  error,
  progress,
  maxMb,
  disabled,
}: {
  file: File | null;
  onFile: (f: File | null) => void;
  error?: string;
  /** 0..1 while uploading, null otherwise. */
  progress: number | null;
  maxMb?: number;
  disabled?: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const pick = () => input.current?.click();
  return (
    <div className="grid gap-1.5">
      <input
        ref={input}
        id={`${id}-file`}
        type="file"
        accept=".zip,.tar.gz,.tgz,application/zip,application/gzip"
        className="sr-only"
        data-testid="skill-upload-input"
        aria-label="Skill archive"
        disabled={disabled}
        onChange={(e) => {
          onFile(e.target.files?.[0] ?? null);
          e.target.value = '';
        }}
      />
      <div
        role="button"
        tabIndex={disabled ? -1 : 0}
        aria-disabled={disabled || undefined}
        aria-describedby={`${id}-help`}
        aria-invalid={!!error || undefined}
        data-testid="skill-dropzone"
        onClick={() => !disabled && pick()}
        onKeyDown={(e) => {
          if (!disabled && (e.key === 'Enter' || e.key === ' ')) {
            e.preventDefault();
            pick();
          }
        }}
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          if (!disabled && e.dataTransfer.files[0]) onFile(e.dataTransfer.files[0]);
        }}
        className={cn(
          'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-4 py-6 text-center text-sm transition-colors focus-visible:outline-2 focus-visible:outline-ring',
          over ? 'border-primary bg-primary/5' : 'border-input hover:bg-muted/50',
          error && 'border-destructive/60',
          disabled && 'cursor-not-allowed opacity-60',
        )}
      >
        {file ? (
          <div className="flex w-full items-center gap-3 text-left">
            <FileArchive aria-hidden className="size-8 shrink-0 text-muted-foreground" />
            <div className="grid min-w-0 flex-1">
              <span className="truncate font-medium" data-testid="upload-file-name">
                {file.name}
              </span>
              <span className="text-xs text-muted-foreground" data-testid="upload-file-size">
                {formatBytes(file.size)}
              </span>
            </div>
            {!disabled ? (
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={`Remove ${file.name}`}
                onClick={(e) => {
                  e.stopPropagation();
                  onFile(null);
                }}
              >
                <X aria-hidden />
              </Button>
            ) : null}
          </div>
        ) : (
          <>
            <UploadCloud aria-hidden className="size-8 text-muted-foreground" />
            <span>
              <span className="font-medium text-primary">Choose an archive</span> or drop it here
            </span>
          </>
        )}
      </div>
      {progress !== null ? (
        <div className="flex items-center gap-2 text-xs text-muted-foreground" data-testid="upload-progress">
          <Progress value={progress * 100} label="Upload progress" />
          <span className="w-10 text-right tabular-nums">{Math.round(progress * 100)}%</span>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : (
        <p id={`${id}-help`} className="text-xs text-muted-foreground">
          A .zip or .tar.gz with SKILL.md at its root (or in one top folder){maxMb ? `, up to ${maxMb} MiB` : ''}. Checked and scanned before anything is
          installed.
        </p>
      )}
    </div>
  );
}
