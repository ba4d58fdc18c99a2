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
 * when one frees, the next text comes from the waiting workspace served least recently, not from the head of one
 * shared line. One workspace sending a burst of long texts then delays another's request by about one text,
 * instead of by its whole burst.
 */
export function fairDetector(inner: Detector, slots: number): Detector {
  const queues = new Map<string, Waiting[]>();
  /** When each workspace was last served (a counter, not a clock); kept while the workspace is known. */
  const lastServed = new Map<string, number>();
  let tick = 0;
  let running = 0;

  const pick = (): string | undefined => {
    let chosen: string | undefined;
    let oldest = Number.POSITIVE_INFINITY;
    for (const workspace of queues.keys()) {
      const served = lastServed.get(workspace) ?? 0;
      if (served < oldest) {
        oldest = served;
        chosen = workspace;
      }
    }
    return chosen;
  };

  const next = () => {
    while (running < slots && queues.size > 0) {
      const workspace = pick() as string;
      const queue = queues.get(workspace) as Waiting[];
      const job = queue.shift() as Waiting;
      if (queue.length === 0) queues.delete(workspace);
      lastServed.set(workspace, ++tick);
      if (lastServed.size > 10_000) forgetIdle();
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

  /** Bounds memory: workspaces with nothing waiting forget when they were served. */
  const forgetIdle = () => {
    for (const workspace of lastServed.keys()) if (!queues.has(workspace)) lastServed.delete(workspace);
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
