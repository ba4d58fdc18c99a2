import { indexFingerprints } from "./engine.ts";
import type { FingerprintIndex, IndexedSource, SourceKey } from "./types.ts";

/** An in-memory index with the same contract as the SQLite one: for tests, tools and small corpora. */
export class MemoryFingerprintIndex implements FingerprintIndex {
  private readonly postings = new Map<bigint, Set<SourceKey>>();
  private readonly sources = new Map<SourceKey, IndexedSource>();
  private readonly fingerprintsOf = new Map<SourceKey, bigint[]>();

  add(source: IndexedSource): void {
    this.remove(source.key);
    const fingerprints = indexFingerprints(source.text);
    for (const fingerprint of fingerprints) {
      let holders = this.postings.get(fingerprint);
      if (holders === undefined) {
        holders = new Set();
        this.postings.set(fingerprint, holders);
      }
      holders.add(source.key);
    }
    this.sources.set(source.key, source);
    this.fingerprintsOf.set(source.key, fingerprints);
  }

  remove(key: SourceKey): void {
    for (const fingerprint of this.fingerprintsOf.get(key) ?? []) this.postings.get(fingerprint)?.delete(key);
    this.sources.delete(key);
    this.fingerprintsOf.delete(key);
  }

  findHolders(fingerprints: readonly bigint[], maxHolders: number): Map<bigint, SourceKey[]> {
    const found = new Map<bigint, SourceKey[]>();
    for (const fingerprint of fingerprints) {
      const holders = this.postings.get(fingerprint);
      if (holders !== undefined && holders.size > 0 && holders.size <= maxHolders) {
        found.set(fingerprint, [...holders]);
      }
    }
    return found;
  }

  loadSources(keys: readonly SourceKey[]): IndexedSource[] {
    return keys.flatMap((key) => this.sources.get(key) ?? []);
  }
}
