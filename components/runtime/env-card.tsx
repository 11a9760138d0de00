'use client';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { CopyButton } from '../ui/copy-button';
import { SkeletonRows, Table, TBody, TD, TH, THead, TR } from '../ui/table';
import type { EnvEntry } from './view';

/** The variables every skill process gets (PATH, PYTHONPATH, …), each with why and a copy button. */
export function EnvCard({ env, loading }: { env: EnvEntry[] | undefined; loading: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Environment</CardTitle>
        <CardDescription>Variables every skill process gets, so packages installed here are found first.</CardDescription>
      </CardHeader>
      <CardContent>
        <Table aria-label="Skill process environment">
          <THead>
            <TR className="hover:bg-transparent">
              <TH className="w-40">Variable</TH>
              <TH>Value</TH>
              <TH className="w-12">
                <span className="sr-only">Copy</span>
              </TH>
            </TR>
          </THead>
          <TBody>
            {loading && !env ? (
              <SkeletonRows rows={4} cols={3} />
            ) : (
              (env ?? []).map((e) => (
                <TR key={e.name}>
                  <TD className="align-top font-mono text-xs font-medium">{e.name}</TD>
                  <TD className="align-top">
                    <code className="block break-all font-mono text-xs">{e.value || '(empty)'}</code>
                    <p className="mt-1 text-xs text-muted-foreground">{e.why}</p>
                  </TD>
                  <TD className="align-top">
                    <CopyButton value={`${e.name}=${e.value}`} label={`Copy ${e.name}`} tooltip={`Copy ${e.name}=…`} className="size-7" />
                  </TD>
                </TR>
              ))
            )}
          </TBody>
        </Table>
      </CardContent>
    </Card>
  );
}
