'use server';
import { ops } from '@/lib/api/operations';
import { action } from '@/lib/http/action';

export const startJobAction = action(ops.startJob);
export const cancelJobAction = action(ops.cancelJob);
export const retryJobAction = action(ops.retryJob);
