import type { FingerprintIndex, IndexedSource, SourceKey } from "../plagiarism/index.ts";
import type { Store } from "../store/db.ts";
import { statementsFor } from "./statements.ts";

/**
 * The engine's index over the store, bound to one workspace: it sees the shared web pages and that workspace's
 * library, never another workspace's documents (the scope is part of every lookup, and a document is loaded
 * only with a matching workspace_id as well).
 */
export function openFingerprintIndex(store: Store, workspaceId: string): FingerprintIndex {
  const statements = statementsFor(store.sqlite);
  // A workspace without library documents has no scope yet; -1 matches no row, leaving the web scope.
  const scope = statements.scopeOf.get(workspaceId)?.key ?? -1;
  return {
    countSharedFingerprints(fingerprints, maxSourcesPerFingerprint) {
      const counts = new Map<SourceKey, number>();
      for (const fingerprint of fingerprints) {
        const holders = statements.holders.all(fingerprint, scope, maxSourcesPerFingerprint + 1);
        if (holders.length > maxSourcesPerFingerprint) continue;
        for (const { source_key } of holders) counts.set(source_key, (counts.get(source_key) ?? 0) + 1);
      }
      return counts;
    },
    loadSources(keys) {
      const sources: IndexedSource[] = [];
      for (const key of keys) {
        const document = statements.documentBySourceKey.get(key, workspaceId);
        if (document !== null) {
          sources.push({
            key,
            type: "document",
            id: document.id,
            url: document.url,
            title: document.title,
            text: document.text,
          });
          continue;
        }
        const page = statements.webPageBySourceKey.get(key);
        if (page !== null) {
          sources.push({ key, type: "web", id: page.id, url: page.url, title: page.title, text: page.text });
        }
      }
      return sources;
    },
  };
}
