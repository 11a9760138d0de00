'use client';

import { useCan } from '../viewer';
import { PersonalEnvCard } from './personal-env-card';
import { useMyEnv, useSetMyEnv, useUnsetMyEnv } from './queries';

/** Your own variables: per sandbox config or per skill, overriding the workspace's; values are write-only. */
export function MyEnvCard() {
  return (
    <PersonalEnvCard
      id="my-env"
      title="Your variables"
      description="Values only you get: for every sandbox of one config, or for one skill (only names the skill declares are passed to it). They override the workspace's values of the same name and are never shown again once set."
      empty="No personal variables yet."
      removeNote="Your value is deleted and cannot be shown again; the workspace's value of the same name, if any, applies again."
      can={useCan('sandboxes.env.own')}
      list={useMyEnv()}
      set={useSetMyEnv()}
      unset={useUnsetMyEnv()}
    />
  );
}
