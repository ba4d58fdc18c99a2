import { checkPlagiarism } from "../fingerprints/index.ts";
import type { PlagiarismOptions, PlagiarismResult } from "../plagiarism/index.ts";
import { openStore, type Store } from "../store/db.ts";
import { serveJobs } from "../workers/pool.ts";

export interface CheckJob {
  dataDir: string;
  workspaceId: string;
  text: string;
  options: PlagiarismOptions;
}

// Each thread has its own connection to the store (SQLite connections are not shared across threads).
const stores = new Map<string, Store>();

serveJobs<CheckJob, PlagiarismResult>((job) => {
  let store = stores.get(job.dataDir);
  if (!store) {
    store = openStore(job.dataDir);
    stores.set(job.dataDir, store);
  }
  return checkPlagiarism(store, job.workspaceId, job.text, job.options);
});
