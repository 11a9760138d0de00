'use server';
import { ops } from '@/lib/api/operations';
import { action } from '@/lib/http/action';

export const setupAction = action(ops.setup);
