import type { Element, ElementContent, Root } from 'hast';
import Link from 'next/link';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { headingSlugger, helpLink } from '@/lib/docs/pages';
import { cn } from '../ui/cn';
import { PROSE } from '../ui/prose';

const EXTERNAL = /^(https?:|mailto:)/i;

function textOf(node: Root | ElementContent): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map((c) => textOf(c as ElementContent)).join('') : '';
}

/** Ids on headings as GitHub gives them, so `page.md#anchor` links land (added after sanitising, which would prefix them). */
function headingIds() {
  return (tree: Root) => {
    const slug = headingSlugger();
    const walk = (node: Root | ElementContent) => {
      if (node.type === 'element' && /^h[1-6]$/.test(node.tagName)) (node as Element).properties.id = slug(textOf(node));
      if ('children' in node) for (const c of node.children) walk(c as ElementContent);
    };
    walk(tree);
  };
}

const components: Components = {
  a: ({ href, children }) => {
    const to = href ? helpLink(href) : undefined;
    if (to?.startsWith('/help')) return <Link href={to}>{children}</Link>;
    if (to && EXTERNAL.test(to)) {
      return (
        <a href={to} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      );
    }
    return <a href={to}>{children}</a>;
  },
  // A block wider than a phone scrolls sideways; focusable, so a keyboard can scroll it too.
  table: ({ children }) => (
    <div className="overflow-x-auto" role="region" aria-label="Table" tabIndex={0}>
      <table>{children}</table>
    </div>
  ),
  pre: ({ children }) => <pre tabIndex={0}>{children}</pre>,
};

/** A docs page rendered on the server: GitHub-flavoured Markdown, sanitised, links between pages pointing into /help. */
export function HelpMarkdown({ source }: { source: string }) {
  return (
    // Long code spans (JSON, paths) wrap instead of pushing a narrow screen sideways; anchors clear the sticky header.
    <article className={cn(PROSE, '[&_li]:[overflow-wrap:anywhere] [&_p]:[overflow-wrap:anywhere] [&_:is(h2,h3)]:scroll-mt-20')} data-testid="help-markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize, headingIds]} components={components}>
        {source}
      </ReactMarkdown>
    </article>
  );
}
