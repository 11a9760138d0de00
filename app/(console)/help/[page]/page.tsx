import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { HelpView } from '@/components/help/help-view';
import { HELP_INDEX, helpPage } from '@/lib/docs/pages';
import { readHelpPage } from '@/lib/docs/read';

type Params = { params: Promise<{ page: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const page = helpPage((await params).page);
  return { title: page ? `Help: ${page.title}` : 'Not found' };
}

/** Only names on the Help list are served; the name is looked up there, never used as a path. */
export default async function Page({ params }: Params) {
  const name = (await params).page;
  if (name === HELP_INDEX) redirect('/help');
  const page = helpPage(name);
  if (!page) notFound();
  return <HelpView page={page} source={readHelpPage(page.name)!} />;
}
