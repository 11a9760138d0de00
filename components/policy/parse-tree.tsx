'use client';

import { ChevronDown, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import type { TreeNode } from '@/lib/policy/types';

const TEXT_MAX = 80;

/** The shell parse as tree-sitter sees it: each node's kind and text; branches fold and unfold. */
export function ParseTree({ tree }: { tree: TreeNode }) {
  return (
    <ul aria-label="Parse tree" className="overflow-x-auto font-mono text-xs">
      <Node node={tree} depth={0} />
    </ul>
  );
}

function Node({ node, depth }: { node: TreeNode; depth: number }) {
  const [open, setOpen] = useState(depth < 3);
  const leaf = node.children.length === 0;
  const text = node.text.length > TEXT_MAX ? `${node.text.slice(0, TEXT_MAX)}…` : node.text;
  const error = node.type === 'ERROR' || node.type === 'MISSING';
  return (
    <li data-node={node.type} className="min-w-max">
      <div className="flex items-center gap-1 py-0.5" style={{ paddingLeft: `${depth * 14}px` }}>
        {leaf ? (
          <span className="inline-block size-4" aria-hidden />
        ) : (
          <button
            type="button"
            onClick={() => setOpen(!open)}
            className="rounded hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
            aria-expanded={open}
            aria-label={`${open ? 'Fold' : 'Unfold'} ${node.type}`}
          >
            {open ? <ChevronDown aria-hidden className="size-4" /> : <ChevronRight aria-hidden className="size-4" />}
          </button>
        )}
        <span className={error ? 'font-semibold text-destructive' : 'font-semibold text-primary'}>{node.type}</span>
        {leaf || !open ? <span className="whitespace-pre text-muted-foreground">{JSON.stringify(text)}</span> : null}
      </div>
      {!leaf && open ? (
        <ul>
          {node.children.map((c, i) => (
            <Node key={i} node={c} depth={depth + 1} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}
