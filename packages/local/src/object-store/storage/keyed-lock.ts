/** Serialises async work per key within this process; work on different keys runs concurrently. */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const chained = previous.then(() => current);
    this.tails.set(key, chained);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === chained) this.tails.delete(key);
    }
  }
}
