/** Text utilities shared by the whole service: limits, billing, detection and plagiarism use these. */
export { detectLanguage } from "./language.ts";
export { normalizeText } from "./normalize.ts";
export { countSyllables, readingEase } from "./readability.ts";
export { type SentenceSpan, splitSentences } from "./sentences.ts";
export { countWords, tokenizeWords, type WordToken } from "./words.ts";
