import { availableParallelism } from "node:os";
import {
  type DetectionResult,
  type DetectOptions,
  detect,
  UnsupportedLanguageError,
} from "../detection/index.ts";
import { createWorkerPool, workerEntry } from "../workers/pool.ts";

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
  return { score: (text, options) => pool.run({ text, options }), close: () => pool.close() };
}
