/**
 * A fixed pool of worker threads that run one kind of CPU-bound job (scoring a text, aligning a plagiarism
 * check), so the server's event loop stays free for requests and both cores work. Each job goes to the least
 * busy thread; a thread that crashes fails its jobs and is replaced.
 */

/** An error as it crosses the thread boundary (structured clone keeps no classes). */
export interface SerializedError {
  kind: string;
  message: string;
  data?: unknown;
}

interface JobMessage<P> {
  id: number;
  payload: P;
}

type ReplyMessage<R> =
  | { id: number; ok: true; result: R }
  | { id: number; ok: false; error: SerializedError };

export interface WorkerPool<P, R> {
  run(payload: P): Promise<R>;
  close(): void;
}

/**
 * Where a worker's code is. Under `bun run` it is the file beside the module; in the compiled binary it is an
 * extra entry point of `bun build --compile` (package.json "build"), addressed from the bundle's root, which is
 * src/ (the entry points' common folder): code paths there are virtual, not beside the module (bun #15766).
 */
export function workerEntry(besideModule: URL, fromSrcRoot: string): string {
  const compiled = besideModule.href.includes("$bunfs") || besideModule.href.includes("~BUN");
  return compiled ? fromSrcRoot : besideModule.href;
}

interface Slot {
  worker: Worker;
  busy: number;
  pending: Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>;
}

export function createWorkerPool<P, R>(options: {
  entry: string;
  size: number;
  /** Turns a serialized error back into the error callers expect (default: a plain Error). */
  decodeError?: (error: SerializedError) => Error;
}): WorkerPool<P, R> {
  const decode = options.decodeError ?? ((error: SerializedError) => new Error(error.message));
  let nextId = 1;
  let closed = false;
  const slots: Slot[] = [];

  const spawn = (index: number): Slot => {
    const worker = new Worker(options.entry);
    const slot: Slot = { worker, busy: 0, pending: new Map() };
    worker.onmessage = (event: MessageEvent<ReplyMessage<R>>) => {
      const reply = event.data;
      const job = slot.pending.get(reply.id);
      if (!job) return;
      slot.pending.delete(reply.id);
      slot.busy--;
      if (reply.ok) job.resolve(reply.result as never);
      else job.reject(decode(reply.error));
    };
    worker.onerror = (event) => {
      const error = new Error(`worker thread crashed: ${event.message}`);
      for (const job of slot.pending.values()) job.reject(error);
      slot.pending.clear();
      worker.terminate();
      if (!closed) slots[index] = spawn(index);
    };
    return slot;
  };

  for (let i = 0; i < Math.max(1, options.size); i++) slots.push(spawn(i));

  return {
    run(payload) {
      if (closed) return Promise.reject(new Error("worker pool is closed"));
      let slot = slots[0] as Slot;
      for (const candidate of slots) if (candidate.busy < slot.busy) slot = candidate;
      const id = nextId++;
      slot.busy++;
      return new Promise<R>((resolve, reject) => {
        slot.pending.set(id, { resolve: resolve as (value: never) => void, reject });
        const message: JobMessage<P> = { id, payload };
        slot.worker.postMessage(message);
      });
    },
    close() {
      closed = true;
      for (const slot of slots) {
        for (const job of slot.pending.values()) job.reject(new Error("worker pool is closed"));
        slot.worker.terminate();
      }
    },
  };
}

declare const self: Worker;

/** The worker side: answers each job with `handle`'s result or its error, serialized by `encodeError`. */
export function serveJobs<P, R>(
  handle: (payload: P) => R | Promise<R>,
  encodeError: (error: unknown) => SerializedError | undefined = () => undefined,
): void {
  self.onmessage = async (event: MessageEvent<JobMessage<P>>) => {
    const { id, payload } = event.data;
    let reply: ReplyMessage<R>;
    try {
      reply = { id, ok: true, result: await handle(payload) };
    } catch (error) {
      reply = {
        id,
        ok: false,
        error: encodeError(error) ?? { kind: "failure", message: (error as Error)?.message ?? String(error) },
      };
    }
    self.postMessage(reply);
  };
}
