/** The plagiarism engine: pure functions over text and an abstract fingerprint index (no database, no HTTP). */
export { analyzeText, type TextAnalysis } from "./analysis.ts";
export { findPlagiarism, indexFingerprints } from "./engine.ts";
export { MemoryFingerprintIndex } from "./memory-index.ts";
export { foldWord } from "./normalize.ts";
export { DEFAULT_PARAMS, type EngineParams, FINGERPRINT_VERSION } from "./params.ts";
export { findQuotedSpans, type Span } from "./quotes.ts";
export type {
  FingerprintIndex,
  IndexedSource,
  PassageMatch,
  PlagiarismOptions,
  PlagiarismResult,
  PlagiarismSource,
  SourceKey,
} from "./types.ts";
export { normalizeUrl } from "./urls.ts";
