type Listener = () => void;

/**
 * A wake-up: "there is new work" (queued jobs, new outbox rows). Notifications are coalesced and delivered on a
 * later tick, after the writing transaction (synchronous in bun:sqlite) has committed; a wake-up caused by a
 * transaction that rolled back finds nothing to do, which is harmless. One per service context, never global,
 * so two services in one process (tests, a server and a CLI command) do not wake each other.
 */
export class Signal {
  private readonly listeners = new Set<Listener>();
  private pending = false;

  notify(): void {
    if (this.pending || this.listeners.size === 0) return;
    this.pending = true;
    setTimeout(() => {
      this.pending = false;
      for (const listener of this.listeners) listener();
    }, 0);
  }

  /** Subscribes; returns the unsubscribe function. */
  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The wake-ups of one service: idle job workers and the webhook dispatcher. */
export interface Wakeups {
  jobs: Signal;
  outbox: Signal;
}

export const newWakeups = (): Wakeups => ({ jobs: new Signal(), outbox: new Signal() });
