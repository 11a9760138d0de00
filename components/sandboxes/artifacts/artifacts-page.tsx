'use client';

import { X } from 'lucide-react';
import Link from 'next/link';
import { PageHeader } from '../../shell/shell';
import { Badge } from '../../ui/badge';
import { buttonVariants } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Input, Select } from '../../ui/input';
import { useUrlFilters } from '../../ui/use-url-filters';
import { useSandboxConfigs } from '../queries';
import { ArtifactsTable, CollectionsSummary, SORTS, type Sort, type SortField } from './artifacts-table';
import { useArtifacts } from './queries';

const PAGE = 50;
interface Filters {
  config: string;
  session: string;
  sandbox: string;
  q: string;
  sort: Sort;
  offset: number;
}

function parse(p: URLSearchParams): Filters {
  const sort = p.get('sort') ?? '-collectedAt';
  const offset = Number(p.get('offset') ?? 0);
  return {
    config: p.get('config') ?? '',
    session: p.get('session') ?? '',
    sandbox: p.get('sandbox') ?? '',
    q: (p.get('q') ?? '').slice(0, 200),
    sort: (SORTS.includes(sort.replace(/^-/, '') as SortField) ? sort : '-collectedAt') as Sort,
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
  };
}
function toQuery(f: Filters): string {
  const q = new URLSearchParams();
  if (f.config) q.set('config', f.config);
  if (f.session) q.set('session', f.session);
  if (f.sandbox) q.set('sandbox', f.sandbox);
  if (f.q) q.set('q', f.q);
  if (f.sort !== '-collectedAt') q.set('sort', f.sort);
  if (f.offset) q.set('offset', String(f.offset));
  return q.toString();
}

/** Files Skilldock kept from sandboxes' /workspace/output before recycling or removing them. */
export function ArtifactsPage() {
  const [f, setFilters] = useUrlFilters(parse, toQuery);
  const configs = useSandboxConfigs();
  const list = useArtifacts({
    configId: f.config || undefined,
    session: f.session || undefined,
    sandbox: f.sandbox || undefined,
    q: f.q || undefined,
    sort: f.sort,
    offset: f.offset,
    limit: PAGE,
  });
  const scoped = f.session || f.sandbox;
  return (
    <>
      <PageHeader
        title="Collected artifacts"
        description="What sandboxes left in /workspace/output, kept before each recycle, removal or idle sweep. Search by file name; download one file at a time."
        actions={
          <div className="flex flex-wrap gap-2">
            <Link className={buttonVariants({ variant: 'outline' })} href="/sandboxes">
              Configs
            </Link>
            <Link className={buttonVariants({ variant: 'outline' })} href="/sandboxes/instances">
              Instances
            </Link>
          </div>
        }
      />
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <Input
          type="search"
          aria-label="Search by file name"
          placeholder="Search by file name"
          className="w-64"
          value={f.q}
          maxLength={200}
          onChange={(e) => setFilters({ q: e.target.value, offset: 0 })}
        />
        <Select aria-label="Filter by config" value={f.config} onChange={(e) => setFilters({ config: e.target.value, offset: 0 })} className="w-48">
          <option value="">All configs</option>
          {(configs.data?.items ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
        {scoped ? (
          <Badge variant="secondary" className="gap-1.5">
            {f.session ? 'Session of' : 'Sandbox'} {(f.session || f.sandbox).split('~')[1]?.slice(0, 12)}
            <button type="button" aria-label="Show every sandbox" onClick={() => setFilters({ session: '', sandbox: '', offset: 0 })}>
              <X className="size-3" aria-hidden />
            </button>
          </Badge>
        ) : null}
      </div>
      <div className="grid gap-4">
        <ArtifactsTable
          data={list.data}
          pending={list.isPending}
          error={list.error}
          sort={f.sort}
          onSort={(sort) => setFilters({ sort, offset: 0 })}
          onPage={(offset) => setFilters({ offset })}
          filtered={!!(f.q || f.config || scoped)}
        />
        {list.data?.collections.length ? (
          <Card>
            <CardHeader>
              <CardTitle>Collections</CardTitle>
              <CardDescription>
                The newest collections in view: each says what it kept and what its caps or the entry rules left out (links are never followed).
              </CardDescription>
            </CardHeader>
            <CardContent>
              <CollectionsSummary collections={list.data.collections} />
            </CardContent>
          </Card>
        ) : null}
      </div>
    </>
  );
}
