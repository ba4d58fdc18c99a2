type Listener = () => void;
const listeners = new Set<Listener>();

/** Wakes idle job workers at once instead of at their next poll (called after a job is committed). */
export function notifyJobsQueued(): void {
  if (listeners.size === 0) return;
  setTimeout(() => {
    for (const listener of listeners) listener();
  }, 0);
}

export function onJobsQueued(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
