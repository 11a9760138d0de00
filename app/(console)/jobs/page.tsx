import { PageHeader } from '@/components/shell/shell';

export default function JobsPage() {
  return <PageHeader title="Jobs" description="Long-running work with live logs." />;
}
