import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type IndexedSource, MemoryFingerprintIndex } from "../../src/plagiarism/index.ts";
import { openStore, type Store } from "../../src/store/db.ts";
import { createWorkspace } from "../../src/workspaces/index.ts";
import { contextOver } from "../support/harness.ts";

/** A fresh store in a temp directory, with `workspaces(n)` to create workspaces through their public verb. */
export function tempStore(): { store: Store; workspace: (name: string) => string; close: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "textscan-plagiarism-"));
  const store = openStore(dir);
  return {
    store,
    workspace: (name) => createWorkspace(contextOver(store), { name, plan: "team" }).id,
    close: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An in-memory index of web pages with the given texts: keys 1.., urls https://example.com/<n>. */
export function memoryIndex(texts: readonly string[]): MemoryFingerprintIndex {
  const index = new MemoryFingerprintIndex();
  texts.forEach((text, i) => {
    const source: IndexedSource = {
      key: i + 1,
      type: "web",
      id: `wp_${i + 1}`,
      url: `https://example.com/${i + 1}`,
      title: `Page ${i + 1}`,
      text,
    };
    index.add(source);
  });
  return index;
}
