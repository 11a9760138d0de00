'use client';

import { Download, KeyRound } from 'lucide-react';
import dynamic from 'next/dynamic';
import Link from 'next/link';
import { PageHeader } from '../shell/shell';
import { Button } from '../ui/button';
import { Skeleton } from '../ui/misc';
import { OPENAPI_URL } from './openapi-url';

function Loading() {
  return (
    <div className="grid gap-4 p-6 md:grid-cols-[14rem_1fr]" role="status" aria-busy="true" aria-label="Loading the API reference">
      <div className="hidden gap-2 md:grid md:content-start">
        {Array.from({ length: 10 }, (_, n) => (
          <Skeleton key={n} className="h-4" style={{ width: `${60 + ((n * 37) % 40)}%` }} />
        ))}
      </div>
      <div className="grid content-start gap-3">
        <Skeleton className="h-7 w-64" />
        <Skeleton className="h-4 w-full max-w-xl" />
        <Skeleton className="h-4 w-full max-w-lg" />
        <Skeleton className="mt-6 h-40 w-full" />
      </div>
    </div>
  );
}

/** Scalar renders in the browser only (it mounts a Vue app), so it is loaded without SSR. */
const ApiReference = dynamic(() => import('./api-reference'), { ssr: false, loading: Loading });

export function ApiDocsView() {
  return (
    <>
      <PageHeader
        title="API reference"
        description="The REST API behind this console, as an OpenAPI 3.1 document built from the same schemas the server enforces."
        actions={
          <Button variant="outline" asChild>
            <a href={OPENAPI_URL} download="skilldock-openapi.json">
              <Download /> Download JSON
            </a>
          </Button>
        }
      />
      <section aria-labelledby="api-auth-title" className="mb-6 flex gap-3 rounded-lg border bg-card p-4 text-sm">
        <KeyRound className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        <div className="grid gap-1.5">
          <h2 id="api-auth-title" className="font-medium">
            Authentication
          </h2>
          <p className="text-muted-foreground">
            In this browser, requests carry your session cookie. Scripts and agent gateways send an API token instead:{' '}
            <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs text-foreground">Authorization: Bearer sdk_…</code>. Create one in{' '}
            <Link href="/settings#tokens" className="font-medium text-primary underline-offset-4 hover:underline">
              Settings → API tokens
            </Link>
            ; it carries only the permissions you give it. Each operation below names the permission it needs.
          </p>
          <p className="text-muted-foreground">
            Errors share one shape:{' '}
            <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs text-foreground">{'{ "error": { "code", "message", "issues"? } }'}</code>; long work
            answers 202 with a job to follow at{' '}
            <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs text-foreground">/api/v1/jobs/{'{id}'}/events</code>.
          </p>
        </div>
      </section>
      <div className="overflow-clip rounded-lg border bg-card" data-testid="api-reference">
        <ApiReference />
      </div>
    </>
  );
}
