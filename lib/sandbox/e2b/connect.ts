// The Connect protocol's streaming envelope, JSON flavour: `flags(1) | length(4, big endian) |
// JSON`. The last frame of a server stream has flag 0x02 and holds `{}` or `{error:{code,message}}`.
import type { Readable } from 'node:stream';
import { AppError } from '@/lib/core/errors';

export const END_STREAM = 0x02;
const COMPRESSED = 0x01;
/** One frame never needs more: output arrives in chunks of a few KiB. */
export const MAX_FRAME = 16 << 20;

export function encodeEnvelope(message: unknown, flags = 0): Buffer {
  const json = Buffer.from(JSON.stringify(message), 'utf8');
  const head = Buffer.alloc(5);
  head.writeUInt8(flags, 0);
  head.writeUInt32BE(json.length, 1);
  return Buffer.concat([head, json]);
}

export interface Frame {
  flags: number;
  message: unknown;
}

/** Yields every frame of a response body; a frame over `maxFrame` or a cut frame is an error. */
export async function* decodeEnvelopes(body: Readable, maxFrame = MAX_FRAME): AsyncGenerator<Frame> {
  let buf: Buffer = Buffer.alloc(0);
  for await (const chunk of body) {
    buf = buf.length ? Buffer.concat([buf, chunk as Buffer]) : (chunk as Buffer);
    while (buf.length >= 5) {
      const flags = buf.readUInt8(0);
      const len = buf.readUInt32BE(1);
      if (len > maxFrame) throw new AppError('sandbox_error', `A stream frame of ${len} bytes exceeds the ${maxFrame} byte limit`);
      if (flags & COMPRESSED) throw new AppError('sandbox_error', 'A compressed stream frame arrived though none was asked for');
      if (buf.length < 5 + len) break;
      const raw = buf.subarray(5, 5 + len).toString('utf8');
      buf = buf.subarray(5 + len);
      let message: unknown;
      try {
        message = raw ? JSON.parse(raw) : {};
      } catch {
        throw new AppError('sandbox_error', 'A stream frame is not JSON');
      }
      yield { flags, message };
    }
  }
  if (buf.length) throw new AppError('sandbox_error', 'The stream ended inside a frame');
}

/** Connect error codes (strings) → the HTTP status the Connect spec pairs them with. */
const CODE_STATUS: Record<string, number> = {
  canceled: 499,
  invalid_argument: 400,
  deadline_exceeded: 504,
  not_found: 404,
  already_exists: 409,
  permission_denied: 403,
  resource_exhausted: 429,
  failed_precondition: 400,
  aborted: 409,
  out_of_range: 400,
  unimplemented: 501,
  internal: 500,
  unavailable: 503,
  unauthenticated: 401,
};

export function statusOfConnectCode(code: string | undefined): number {
  return (code && CODE_STATUS[code]) || 500;
}
