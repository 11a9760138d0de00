import type { Metadata } from 'next';
import { NotFoundBody } from '@/components/shell/not-found-body';

export const metadata: Metadata = { title: 'Not found' };

export default function NotFound() {
  return <NotFoundBody signedIn />;
}
