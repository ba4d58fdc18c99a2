import { availableParallelism } from "node:os";
import {
  type DetectionResult,
  type DetectOptions,
  detect,
  UnsupportedLanguageError,
} from "../detection/index.ts";
import type { WorkerReply, WorkerRequest } from "./protocol.ts";

/**
 * How the service runs the pure detection engine. The server uses a pool of worker threads so that scoring a
 * long text (hundreds of milliseconds of CPU) never blocks the event loop and both cores score at once; the CLI
 * and unit tests can score in-process.
 */
export interface Detector {
  score(text: string, options: DetectOptions): Promise<DetectionResult>;
  close(): void;
}

export function inProcessDetector(): Detector {
  return {
    score: async (text, options) => detect(text, options),
    close: () => {},
  };
}

export const defaultPoolSize = (env: Record<string, string | undefined> = process.env): number => {
  const raw = env.TEXTSCAN_DETECT_THREADS;
  const n = raw ? Number(raw) : availableParallelism();
  return Number.isInteger(n) && n >= 1 ? n : 1;
};

/**
 * Where the worker's code is. Under `bun run` it is the file beside this one. In the compiled binary it is the
 * second entry point of `bun build --compile` (package.json "build"), addressed from the bundle's root, which is
 * src/ (the entry points' common folder); bun #15766: code paths there are virtual, not beside the module.
 */
function workerEntry(): string {
  const compiled = import.meta.url.includes("$bunfs") || import.meta.url.includes("~BUN");
  return compiled ? "./detector/worker.ts" : new URL("./worker.ts", import.meta.url).href;
}

interface Pending {
  resolve: (result: DetectionResult) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: number;
  pending: Map<number, Pending>;
}

/** A fixed pool of detection workers; each job goes to the least busy one. A crashed worker is replaced. */
export function workerPoolDetector(size = defaultPoolSize()): Detector {
  let nextId = 1;
  let closed = false;
  const slots: Slot[] = [];

  const spawn = (index: number): Slot => {
    const worker = new Worker(workerEntry());
    const slot: Slot = { worker, busy: 0, pending: new Map() };
    worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      const reply = event.data;
      const job = slot.pending.get(reply.id);
      if (!job) return;
      slot.pending.delete(reply.id);
      slot.busy--;
      if (reply.ok) job.resolve(reply.result);
      else if (reply.error.kind === "unsupported_language") {
        job.reject(new UnsupportedLanguageError(reply.error.language, reply.error.supported));
      } else job.reject(new Error(`detection worker: ${reply.error.message}`));
    };
    worker.onerror = (event) => {
      const error = new Error(`detection worker crashed: ${event.message}`);
      for (const job of slot.pending.values()) job.reject(error);
      slot.pending.clear();
      worker.terminate();
      if (!closed) slots[index] = spawn(index);
    };
    return slot;
  };

  for (let i = 0; i < size; i++) slots.push(spawn(i));

  return {
    score(text, options) {
      if (closed) return Promise.reject(new Error("detector pool is closed"));
      let slot = slots[0] as Slot;
      for (const candidate of slots) if (candidate.busy < slot.busy) slot = candidate;
      const id = nextId++;
      slot.busy++;
      return new Promise<DetectionResult>((resolve, reject) => {
        slot.pending.set(id, { resolve, reject });
        const request: WorkerRequest = { id, text, options };
        slot.worker.postMessage(request);
      });
    },
    close() {
      closed = true;
      for (const slot of slots) {
        for (const job of slot.pending.values()) job.reject(new Error("detector pool is closed"));
        slot.worker.terminate();
      }
    },
  };
}
