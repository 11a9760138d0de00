import type { Metadata } from 'next';
import { HelpView } from '@/components/help/help-view';
import { HELP_INDEX, helpPage } from '@/lib/docs/pages';
import { readHelpPage } from '@/lib/docs/read';

export const metadata: Metadata = { title: 'Help' };

export default function Page() {
  return <HelpView page={helpPage(HELP_INDEX)!} source={readHelpPage(HELP_INDEX)!} />;
}
