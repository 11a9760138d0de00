'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useJob } from '../../jobs/queries';
import { isFinal, type Job } from '../../jobs/view';
import { JobDrawer } from '../../runtime/job-drawer';
import { invalidateSkills } from '../queries';

/** Renders nothing: when the job ends, the skill's readiness may have changed (a package landed), so skills are refetched. */
function SkillsRefreshOnEnd({ id }: { id: string }) {
  const qc = useQueryClient();
  const { data } = useJob(id, { poll: true });
  const ended = !!data && isFinal(data.state);
  useEffect(() => {
    if (ended) invalidateSkills(qc);
  }, [ended, qc]);
  return null;
}

/** Opens the runtime's job drawer (live state, progress, log) for a job started from a skill page. */
export function useFollowJob() {
  const [drawer, setDrawer] = useState<{ job: Job; open: boolean } | null>(null);
  const follow = (job: Job) => setDrawer({ job, open: true });
  const node = drawer ? (
    <>
      <SkillsRefreshOnEnd key={`w-${drawer.job.id}`} id={drawer.job.id} />
      <JobDrawer key={drawer.job.id} job={drawer.job} open={drawer.open} onOpenChange={(open) => setDrawer((d) => (d ? { ...d, open } : d))} />
    </>
  ) : null;
  return { follow, node };
}
