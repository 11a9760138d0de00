import Link from 'next/link';
import { HELP_PAGES, type HelpPage, helpHref } from '@/lib/docs/pages';
import { PageHeader } from '../shell/shell';
import { cn } from '../ui/cn';
import { HelpMarkdown } from './help-markdown';

/** The page's own `# Title` becomes the page header; the rest is the body. */
function splitTitle(source: string, fallback: string): { title: string; body: string } {
  const m = /^# (.+)\n/.exec(source);
  return m ? { title: m[1]!.trim(), body: source.slice(m[0].length) } : { title: fallback, body: source };
}

export function HelpView({ page, source }: { page: HelpPage; source: string }) {
  const { title, body } = splitTitle(source, page.title);
  return (
    <>
      <PageHeader title={title} description={page.name === 'index' ? 'How Skilldock works, from the docs/ folder of this version.' : page.summary} />
      <div className="grid min-w-0 gap-6 md:grid-cols-[13rem_minmax(0,1fr)]">
        <nav aria-label="Help pages" className="min-w-0 md:sticky md:top-20 md:self-start">
          <ul className="flex flex-wrap gap-1 md:flex-col md:gap-0.5">
            {HELP_PAGES.map((p) => (
              <li key={p.name}>
                <Link
                  href={helpHref(p.name)}
                  aria-current={p.name === page.name ? 'page' : undefined}
                  className={cn(
                    'block rounded-md px-2 py-1 text-sm text-muted-foreground hover:bg-accent hover:text-accent-foreground',
                    p.name === page.name && 'bg-accent font-medium text-accent-foreground',
                  )}
                >
                  {p.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0">
          <HelpMarkdown source={body} />
        </div>
      </div>
    </>
  );
}
