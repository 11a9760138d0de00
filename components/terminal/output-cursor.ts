/**
 * Where the screen is in a session's output, in absolute byte offsets. Each socket replays from
 * `replayFrom`: bytes the screen already shows are skipped, and a jump past `offset` means the server
 * no longer held what was printed while the socket was away.
 */
export class OutputCursor {
  /** How far into the session's output the screen is: what a re-attach asks to continue from. */
  offset = 0;
  /** The screen shows this session's output up to `offset` (false for a fresh screen after a reload). */
  inSync = false;
  private position = 0;

  /** A socket's stream starts at `replayFrom`; true when some output in between is gone. */
  begin(replayFrom: number): boolean {
    this.position = replayFrom;
    const lost = this.inSync && replayFrom > this.offset;
    if (!this.inSync || lost) this.offset = replayFrom;
    this.inSync = true;
    return lost;
  }

  /** The part of a frame the screen has not shown yet (null: all of it is there already). */
  take(bytes: Uint8Array): Uint8Array | null {
    const start = this.position;
    this.position += bytes.length;
    if (this.position <= this.offset) return null;
    const fresh = start < this.offset ? bytes.subarray(this.offset - start) : bytes;
    this.offset = this.position;
    return fresh;
  }

  reset(offset = 0): void {
    this.offset = offset;
    this.inSync = false;
  }
}
