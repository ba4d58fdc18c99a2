import { findPlagiarism, type PlagiarismOptions, type PlagiarismResult } from "../plagiarism/index.ts";
import type { Store } from "../store/db.ts";
import { openFingerprintIndex } from "./sqlite-index.ts";

/**
 * The service verb the plagiarism job runs: compares a text with the web index and the workspace's library.
 * Read-only and synchronous (bun:sqlite), so it may run outside any transaction.
 */
export function checkPlagiarism(
  store: Store,
  workspaceId: string,
  text: string,
  options: PlagiarismOptions = {},
): PlagiarismResult {
  return findPlagiarism(text, openFingerprintIndex(store, workspaceId), options);
}
