'use client';

import { ImageOff } from 'lucide-react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { cn } from '../../ui/cn';
import { PROSE } from '../../ui/prose';

const EXTERNAL = /^(https?:|mailto:)/i;

/**
 * A skill's Markdown, sanitised (rehype-sanitize's GitHub schema: no raw HTML, no scripts, no
 * javascript: links). Remote images are not loaded (a skill must not make the console fetch
 * arbitrary URLs); they show as links. Relative links open the file in the Files tab.
 */
export function SkillMarkdown({ source, onOpenFile, className }: { source: string; onOpenFile?: (path: string) => void; className?: string }) {
  const components: Components = {
    a: ({ href, children }) => {
      if (href && EXTERNAL.test(href)) {
        return (
          <a href={href} target="_blank" rel="noopener noreferrer nofollow">
            {children}
          </a>
        );
      }
      if (href && onOpenFile && !href.startsWith('#')) {
        const path = href.replace(/^\.\//, '').split('#')[0];
        return (
          <button type="button" className="text-primary underline-offset-4 hover:underline" onClick={() => onOpenFile(decodeURIComponent(path))}>
            {children}
          </button>
        );
      }
      return <a href={href}>{children}</a>;
    },
    img: ({ src, alt }) => (
      <span
        className="inline-flex items-center gap-1 rounded border px-1.5 py-0.5 text-xs text-muted-foreground"
        title={typeof src === 'string' ? src : undefined}
      >
        <ImageOff aria-hidden className="size-3" /> {alt || 'image'} (not loaded)
      </span>
    ),
  };
  return (
    <div className={cn(PROSE, className)} data-testid="skill-markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} components={components}>
        {source}
      </ReactMarkdown>
    </div>
  );
}
