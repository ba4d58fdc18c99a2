import type { DetectionResult, DetectOptions } from "../detection/index.ts";

/** Messages between the detector pool and its worker threads (structured-clone safe). */
export interface WorkerRequest {
  id: number;
  text: string;
  options: DetectOptions;
}

export type WorkerReply =
  | { id: number; ok: true; result: DetectionResult }
  | {
      id: number;
      ok: false;
      error:
        | { kind: "unsupported_language"; language: string; supported: string[] }
        | { kind: "failure"; message: string };
    };
