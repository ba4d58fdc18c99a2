/** The persistent fingerprint index over the store, and the plagiarism check that uses it. */
export { checkPlagiarism } from "./check.ts";
export { COMPACT_AT_ROWS, compactFingerprints, compactFingerprintsIfDue } from "./compact.ts";
export {
  addLibraryDocument,
  addLibraryDocuments,
  getLibraryDocument,
  type LibraryDocument,
  listLibraryDocuments,
  type NewLibraryDocument,
  removeLibraryDocument,
} from "./library.ts";
export { openFingerprintIndex } from "./sqlite-index.ts";
export {
  getWebPage,
  type NewWebPage,
  removeWebPage,
  upsertWebPage,
  upsertWebPages,
  type WebPage,
} from "./web.ts";
