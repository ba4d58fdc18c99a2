import type { ServiceContext } from "../context/index.ts";
import { checkPlagiarism } from "../fingerprints/index.ts";
import type { PlagiarismOptions, PlagiarismResult } from "../plagiarism/index.ts";
import type { PlagiarismJobOptions } from "../scans/plagiarism.ts";
import type { ScanRow } from "../scans/view.ts";
import { addLiveSources, type LiveSearchDeps, SearchUnavailableError } from "../websearch/index.ts";
import { createWorkerPool, workerEntry } from "../workers/pool.ts";
import type { CheckJob } from "./check-worker.ts";
import { RetryableJobError } from "./index.ts";

export const SOURCE_UNREACHABLE_MESSAGE =
  "The live web search could not be reached; the check was retried and the credits were refunded.";

/** Aligns a text with the library and the web index: in-process, or on a worker thread (`checkThreads`). */
export type Align = (
  workspaceId: string,
  text: string,
  options: PlagiarismOptions,
) => Promise<PlagiarismResult>;

export interface PlagiarismCheckDeps {
  /** The live web search step; null turns it off. Default: the configuration's (TEXTSCAN_SEARCH_URL). */
  liveSearch?: LiveSearchDeps | null;
  /** Default: in-process, on the caller's connection. */
  align?: Align;
}

/**
 * Alignment on worker threads with their own store connections: a 25,000-word check against a large library
 * is a second of CPU, which on the event loop would stall every request meanwhile.
 */
export function checkThreads(dataDir: string, size: number): { align: Align; close(): void } {
  const pool = createWorkerPool<CheckJob, PlagiarismResult>({
    entry: workerEntry(new URL("./check-worker.ts", import.meta.url), "./jobs/check-worker.ts"),
    size,
  });
  return {
    align: (workspaceId, text, options) => pool.run({ dataDir, workspaceId, text, options }),
    close: () => pool.close(),
  };
}

/**
 * The check a claimed plagiarism scan runs: with live search on, the text's distinctive phrases are searched
 * and the top pages added to the web index first; then the workspace library and the web index are aligned
 * with the scan's own exclusions. A search provider that cannot be reached throws `RetryableJobError`
 * (`source_unreachable`), so the scan is retried with backoff before it fails with a refund.
 */
export function plagiarismCheck(ctx: ServiceContext, deps: PlagiarismCheckDeps = {}) {
  const { store } = ctx;
  const settings = ctx.config.liveSearch;
  const live =
    deps.liveSearch === undefined
      ? settings === null
        ? null
        : { settings, now: ctx.clock }
      : deps.liveSearch;
  const align: Align =
    deps.align ?? (async (workspaceId, text, options) => checkPlagiarism(store, workspaceId, text, options));
  return async (scan: ScanRow): Promise<Record<string, unknown>> => {
    const options = scan.options as Partial<PlagiarismJobOptions>;
    const excludeQuotes = options.exclude_quotes ?? true;
    const excludeUrls = options.exclude_urls ?? [];
    if (live !== null) {
      try {
        await addLiveSources(store, scan.text, { excludeQuotes, excludeUrls }, live);
      } catch (error) {
        if (error instanceof SearchUnavailableError) {
          // The detail names the operator's own provider: it goes to the log, not to the customer.
          ctx.logger.warn("job.source_unreachable", { scan: scan.id, error: error.message });
          throw new RetryableJobError("source_unreachable", SOURCE_UNREACHABLE_MESSAGE);
        }
        throw error;
      }
    }
    const result = await align(scan.workspaceId, scan.text, { excludeQuotes, excludeUrls });
    return result as unknown as Record<string, unknown>;
  };
}
