'use client';

import { useQueryClient } from '@tanstack/react-query';
import { Download, File, Folder, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { buttonVariants } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { ErrorNote, Progress, Skeleton, Tip } from '../../ui/misc';
import { Table, TBody, TD, TH, THead, TR } from '../../ui/table';
import { RelativeTime } from '../../ui/time';
import { useCan } from '../../viewer';
import { fileUrl, instancesKey, useInstanceFiles } from './queries';

const ROOT = '/workspace/output';

function size(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1048576) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1048576).toFixed(1)} MiB`;
}

/** Sends one file into /workspace/input with upload progress (fetch reports none, XHR does). */
function uploadFile(id: string, file: globalThis.File, onProgress: (pct: number) => void): Promise<{ path: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/v1/sandboxes/${encodeURIComponent(id)}/files`);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.setRequestHeader('x-filename', encodeURIComponent(file.name));
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      let body: { error?: { message?: string } } & { path?: string; bytes?: number } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* a non-JSON answer is reported by status */
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as { path: string; bytes: number });
      else reject(new Error(body.error?.message ?? `Upload failed (${xhr.status})`));
    };
    xhr.onerror = () => reject(new Error('The upload could not reach the server.'));
    xhr.send(file);
  });
}

/** /workspace/output with folders to open and files to download, and an upload into /workspace/input. */
export function ArtifactsBrowser({ id }: { id: string }) {
  const [dir, setDir] = useState(ROOT);
  const files = useInstanceFiles(id, dir);
  const { allowed, why } = useCan('sandboxes.run');
  const qc = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const crumbs = dir.slice(ROOT.length).split('/').filter(Boolean);

  async function onPick(list: FileList | null) {
    const file = list?.[0];
    if (!file) return;
    setProgress(0);
    try {
      const r = await uploadFile(id, file, setProgress);
      toast.success(`Uploaded ${file.name}`, { description: `${r.path} (${size(r.bytes)})` });
      void qc.invalidateQueries({ queryKey: [...instancesKey, id, 'files'] });
    } catch (e) {
      toast.error(`Could not upload ${file.name}`, { description: (e as Error).message });
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  }

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div>
          <CardTitle>Artifacts</CardTitle>
          <CardDescription>
            <nav aria-label="Folder" className="flex flex-wrap gap-1">
              <button type="button" className="underline-offset-2 hover:underline" onClick={() => setDir(ROOT)}>
                {ROOT}
              </button>
              {crumbs.map((c, i) => (
                <button
                  key={`${i}-${c}`}
                  type="button"
                  className="underline-offset-2 hover:underline"
                  onClick={() => setDir(`${ROOT}/${crumbs.slice(0, i + 1).join('/')}`)}
                >
                  / {c}
                </button>
              ))}
            </nav>
          </CardDescription>
        </div>
        <Tip content={why}>
          <label className={buttonVariants({ variant: 'outline', size: 'sm' })} aria-disabled={!allowed || progress !== null}>
            <Upload aria-hidden /> Upload to /workspace/input
            <input ref={input} type="file" className="sr-only" disabled={!allowed || progress !== null} onChange={(e) => void onPick(e.target.files)} />
          </label>
        </Tip>
      </CardHeader>
      <CardContent className="grid gap-2">
        {progress !== null ? <Progress value={progress} label="Upload progress" /> : null}
        {files.error ? <ErrorNote error={files.error} /> : null}
        {files.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : files.data && files.data.entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing here yet: what the sandbox writes under {dir} shows up here.</p>
        ) : files.data ? (
          <Table aria-label="Artifacts">
            <THead>
              <TR>
                <TH>Name</TH>
                <TH>Size</TH>
                <TH>Modified</TH>
                <TH className="text-right">Download</TH>
              </TR>
            </THead>
            <TBody>
              {files.data.entries.map((e) => (
                <TR key={e.path} data-file={e.name}>
                  <TD>
                    {e.type === 'dir' ? (
                      <button type="button" className="flex items-center gap-1 underline-offset-2 hover:underline" onClick={() => setDir(e.path)}>
                        <Folder className="size-4" aria-hidden /> {e.name}
                      </button>
                    ) : (
                      <span className="flex items-center gap-1">
                        <File className="size-4" aria-hidden /> {e.name}
                      </span>
                    )}
                  </TD>
                  <TD>{e.type === 'dir' ? '—' : size(e.size)}</TD>
                  <TD>
                    <RelativeTime iso={e.modifiedAt} />
                  </TD>
                  <TD className="text-right">
                    {e.type === 'file' ? (
                      allowed ? (
                        <a
                          className={buttonVariants({ variant: 'ghost', size: 'sm' })}
                          href={fileUrl(id, e.path)}
                          download={e.name}
                          aria-label={`Download ${e.name}`}
                        >
                          <Download aria-hidden />
                        </a>
                      ) : (
                        <span className="text-xs text-muted-foreground">{why}</span>
                      )
                    ) : null}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        ) : null}
      </CardContent>
    </Card>
  );
}
