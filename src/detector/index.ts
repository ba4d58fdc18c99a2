import { availableParallelism } from "node:os";
import {
  type DetectionResult,
  type DetectOptions,
  detect,
  UnsupportedLanguageError,
} from "../detection/index.ts";
import { createWorkerPool, workerEntry } from "../workers/pool.ts";
import { fairDetector } from "./fair.ts";

/**
 * How the service runs the pure detection engine. The server uses a pool of worker threads so that scoring a
 * long text (hundreds of milliseconds of CPU) never blocks the event loop and both cores score at once; the CLI
 * and unit tests can score in-process.
 */
export interface Detector {
  /** `workspace` lets a shared detector share its threads fairly between workspaces (src/detector/fair.ts). */
  score(text: string, options: DetectOptions, workspace?: string): Promise<DetectionResult>;
  close(): void;
}

export function inProcessDetector(): Detector {
  return {
    score: async (text, options) => detect(text, options),
    close: () => {},
  };
}

/** One detection thread per core unless the configuration (TEXTSCAN_DETECT_THREADS) says otherwise. */
export const defaultPoolSize = (): number => Math.max(1, availableParallelism());

export function workerPoolDetector(size = defaultPoolSize()): Detector {
  const pool = createWorkerPool<{ text: string; options: DetectOptions }, DetectionResult>({
    entry: workerEntry(new URL("./worker.ts", import.meta.url), "./detector/worker.ts"),
    size,
    decodeError: (error) => {
      if (error.kind === "unsupported_language") {
        const data = error.data as { language: string; supported: string[] };
        return new UnsupportedLanguageError(data.language, data.supported);
      }
      return new Error(`detection worker: ${error.message}`);
    },
  });
  // The pool's own line is first come, first served; the fair front keeps one workspace from filling it.
  return fairDetector(
    { score: (text, options) => pool.run({ text, options }), close: () => pool.close() },
    size,
  );
}
