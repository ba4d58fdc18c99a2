import type { FingerprintIndex, IndexedSource, SourceKey } from "../plagiarism/index.ts";
import type { Store } from "../store/db.ts";
import { LOOKUP_BATCH, statementsFor } from "./statements.ts";

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
    findHolders(fingerprints, maxHolders) {
      const holdersOf = new Map<bigint, SourceKey[]>();
      const batch: Array<bigint | number> = new Array(LOOKUP_BATCH + 1);
      for (let from = 0; from < fingerprints.length; from += LOOKUP_BATCH) {
        for (let i = 0; i < LOOKUP_BATCH; i++) {
          batch[i] = fingerprints[from + i] ?? (fingerprints[from] as bigint);
        }
        batch[LOOKUP_BATCH] = scope;
        for (const [hash, sourceKey] of statements.holders.values(...batch)) {
          const holders = holdersOf.get(hash as bigint);
          if (holders === undefined) holdersOf.set(hash as bigint, [Number(sourceKey)]);
          else holders.push(Number(sourceKey));
        }
      }
      for (const [hash, holders] of holdersOf) if (holders.length > maxHolders) holdersOf.delete(hash);
      return holdersOf;
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
