import { checkPlagiarism } from "../fingerprints/index.ts";
import type { PlagiarismJobOptions } from "../scans/plagiarism.ts";
import type { ScanRow } from "../scans/view.ts";
import type { Store } from "../store/db.ts";

/**
 * The check a claimed plagiarism scan runs: the workspace library and the web index, with the scan's own
 * exclusions. Steps that reach the network (a live search provider) throw `RetryableJobError` when a source
 * cannot be reached, so the scan is retried with backoff before it fails with a refund.
 */
export function plagiarismCheck(store: Store) {
  return (scan: ScanRow): Record<string, unknown> => {
    const options = scan.options as Partial<PlagiarismJobOptions>;
    const result = checkPlagiarism(store, scan.workspaceId, scan.text, {
      excludeQuotes: options.exclude_quotes ?? true,
      excludeUrls: options.exclude_urls ?? [],
    });
    return result as unknown as Record<string, unknown>;
  };
}
