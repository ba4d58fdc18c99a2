import type { DetectionResult, DetectOptions } from "../detection/index.ts";
import type { Detector } from "./index.ts";

interface Waiting {
  text: string;
  options: DetectOptions;
  resolve: (result: DetectionResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Fair share of the detection threads across workspaces: at most `slots` texts are on the threads at once, and
 * when one frees, the next text comes from the workspace after the last one served (round robin), not from the
 * head of one shared line. One workspace sending a burst of long texts then delays another's request by about
 * one text per workspace, instead of by its whole burst.
 */
export function fairDetector(inner: Detector, slots: number): Detector {
  const queues = new Map<string, Waiting[]>();
  let running = 0;

  const next = () => {
    while (running < slots && queues.size > 0) {
      // Map iteration order is insertion order: take the first workspace, then move it to the back.
      const [workspace, queue] = queues.entries().next().value as [string, Waiting[]];
      const job = queue.shift() as Waiting;
      queues.delete(workspace);
      if (queue.length > 0) queues.set(workspace, queue);
      running++;
      inner
        .score(job.text, job.options)
        .then(job.resolve, job.reject)
        .finally(() => {
          running--;
          next();
        });
    }
  };

  const score = (text: string, options: DetectOptions, workspace = ""): Promise<DetectionResult> =>
    new Promise((resolve, reject) => {
      const queue = queues.get(workspace);
      const job = { text, options, resolve, reject };
      if (queue) queue.push(job);
      else queues.set(workspace, [job]);
      next();
    });

  return { score, close: () => inner.close() };
}
