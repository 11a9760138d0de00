// The recent output of a terminal, addressed by absolute byte offsets since the shell started. A
// client that remembers how far it got asks for what came after, so a re-attach shows every missed
// byte once and nothing twice; when those bytes were already overwritten it learns so ("gap").

export const DEFAULT_RING_BYTES = 1 << 20;

export class ByteRing {
  private readonly buf: Buffer;
  /** Total bytes ever appended: the offset just past the newest byte. */
  private total = 0;

  constructor(readonly capacity: number = DEFAULT_RING_BYTES) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('ring capacity must be a positive integer');
    this.buf = Buffer.alloc(capacity);
  }

  /** The offset just past the newest byte. */
  get end(): number {
    return this.total;
  }

  /** The offset of the oldest byte still held. */
  get start(): number {
    return Math.max(0, this.total - this.capacity);
  }

  append(bytes: Uint8Array): void {
    let data = bytes;
    if (data.length === 0) return;
    if (data.length > this.capacity) {
      this.total += data.length - this.capacity;
      data = data.subarray(data.length - this.capacity);
    }
    const at = this.total % this.capacity;
    const first = Math.min(data.length, this.capacity - at);
    this.buf.set(data.subarray(0, first), at);
    if (first < data.length) this.buf.set(data.subarray(first), 0);
    this.total += data.length;
  }

  /** The bytes after `offset`; "gap" when some of them are gone or the offset is not one this ring produced. */
  since(offset: number): Buffer | 'gap' {
    if (!Number.isInteger(offset) || offset < this.start || offset > this.total) return 'gap';
    const n = this.total - offset;
    const out = Buffer.alloc(n);
    const at = offset % this.capacity;
    const first = Math.min(n, this.capacity - at);
    this.buf.copy(out, 0, at, at + first);
    if (first < n) this.buf.copy(out, first, 0, n - first);
    return out;
  }
}
