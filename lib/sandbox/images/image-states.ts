// A snapshot image's states and what moves it between them, as data.
import type { ImageState } from '@/db/schema/installs';
import { AppError, isAppError } from '../../core/errors';

export const IMAGE_EVENTS = ['activate', 'supersede', 'delete'] as const;
export type ImageEvent = (typeof IMAGE_EVENTS)[number];

export const IMAGE_TRANSITIONS: Readonly<Record<ImageState, Partial<Record<ImageEvent, ImageState>>>> = {
  building: { activate: 'active', delete: 'deleted' },
  active: { supersede: 'superseded' },
  superseded: { delete: 'deleted' },
  deleted: { delete: 'deleted' },
};

const IMAGE_REFUSALS: Record<ImageState, string> = {
  building: 'This image is still being built; it cannot be superseded before it is active.',
  active: 'This image is the one the sandbox config uses; activate another generation before deleting it.',
  superseded: 'This image was already replaced; it can only be deleted.',
  deleted: 'This image was deleted; plan a new generation instead.',
};

export function nextImageState(from: ImageState, event: ImageEvent): ImageState | AppError<'invalid_state'> {
  const to = IMAGE_TRANSITIONS[from][event];
  return to ?? new AppError('invalid_state', IMAGE_REFUSALS[from], { details: { state: from, event } });
}

export function requireNextImageState(from: ImageState, event: ImageEvent): ImageState {
  const to = nextImageState(from, event);
  if (isAppError(to)) throw to;
  return to;
}
