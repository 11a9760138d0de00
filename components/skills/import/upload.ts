'use client';

import { ApiError } from '../../api';
import type { UploadRecord } from '../view';

export const ARCHIVE_RE = /\.(zip|tar\.gz|tgz)$/i;

/** Hex sha256 of the file, or null where the browser offers no WebCrypto (a page served over plain http to another host). */
export async function sha256Hex(file: Blob): Promise<string | null> {
  if (typeof crypto === 'undefined' || !crypto.subtle) return null;
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MiB`;
}

/**
 * POST /api/v1/skills/uploads with the archive as the raw body. The one console write that stays on
 * REST instead of a server action: an action takes its argument as one serialized value (the whole
 * archive in memory, under the action body limit, with no progress), while the route streams the body
 * to disk as it arrives. XMLHttpRequest rather than fetch: only it reports upload progress. The
 * server checks the size cap and the declared sha256.
 */
export function uploadArchive(file: File, sha256: string | null, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<UploadRecord> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/v1/skills/uploads');
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.setRequestHeader('x-filename', encodeURIComponent(file.name));
    if (sha256) xhr.setRequestHeader('x-content-sha256', sha256);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let data: { error?: { code?: string; message?: string; issues?: [] } } | null = null;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status >= 200 && xhr.status < 300 && data) {
        onProgress(1);
        resolve(data as unknown as UploadRecord);
        return;
      }
      const e = data?.error;
      reject(new ApiError(xhr.status, e?.code ?? `HTTP_${xhr.status}`, e?.message ?? `The upload failed (HTTP ${xhr.status}).`, e?.issues ?? []));
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', 'The upload was interrupted: check the connection and try again.'));
    xhr.onabort = () => reject(new ApiError(0, 'ABORTED', 'The upload was canceled.'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
