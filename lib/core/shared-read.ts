const settle = () => undefined;

/**
 * Concurrent reads of one key, coalesced without serving anything older than the caller: a caller
 * that arrives while a read of its key is running (which may have started before it arrived, and
 * so may miss a write it must see) waits for the next read, which starts once the running one ends
 * and is shared by everyone who arrived meanwhile. Under load a key costs one read at a time, and
 * every answer is read after its caller arrived, as an uncoalesced read would be.
 */
export class SharedReads<V> {
  private readonly flights = new Map<string, { current: Promise<V>; queued?: Promise<V> }>();

  constructor(private readonly read: (key: string) => Promise<V>) {}

  get(key: string): Promise<V> {
    const f = this.flights.get(key);
    if (!f) return this.start(key);
    f.queued ??= f.current.then(settle, settle).then(() => this.start(key));
    return f.queued;
  }

  /** Keys with a read running (tests). */
  get running(): number {
    return this.flights.size;
  }

  private start(key: string): Promise<V> {
    const current = this.read(key);
    const f: { current: Promise<V>; queued?: Promise<V> } = { current };
    this.flights.set(key, f);
    void current.then(settle, settle).then(() => {
      // A queued read replaces this flight itself; otherwise the key is idle again.
      if (this.flights.get(key) === f && !f.queued) this.flights.delete(key);
    });
    return current;
  }
}
