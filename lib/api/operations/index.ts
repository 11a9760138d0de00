import 'server-only';
import type { ApiName } from '../contracts';
import { accessOps } from './access';
import { githubOps } from './github';
import { jobOps } from './jobs';
import { packageOps } from './packages';
import { settingsOps, skillOps } from './skills';

/** Every operation of the API, under the same names as the contracts they implement. */
export const ops = { ...accessOps, ...jobOps, ...packageOps, ...githubOps, ...skillOps, ...settingsOps } satisfies Record<ApiName, unknown>;

export type OpName = keyof typeof ops;
