/**
 * Flesch reading ease (Flesch 1948) clamped to the spec's 0 (hard) .. 100 (easy) and rounded:
 * 206.835 - 1.015 * (words / sentences) - 84.6 * (syllables / words).
 * Syllables are estimated by vowel groups with the usual English corrections; the score is defined for
 * English, and for other Latin-script languages it is only indicative.
 */
import { splitSentences } from "./sentences.ts";

const LETTER_WORD = /[\p{L}]+(?:['\u2019][\p{L}]+)*/gu;

/** Estimated syllables of one English word (at least 1). */
export function countSyllables(word: string): number {
  let w = word.toLowerCase().replace(/['\u2019]/g, "");
  if (w.length <= 3) return 1;
  w = w.replace(/(?:[^laeiouy]es|[^laeiouy]ed|[^laeiouy]e)$/, "").replace(/^y/, "");
  const groups = w.match(/[aeiouy\u00E0-\u00FF]+/g);
  return Math.max(1, groups ? groups.length : 1);
}

/** `sentenceCount` may be passed by a caller that has already split the text (saves a second split). */
export function readingEase(text: string, sentenceCount?: number): number {
  const words = text.match(LETTER_WORD) ?? [];
  if (words.length === 0) return 0;
  const sentences = Math.max(1, sentenceCount ?? splitSentences(text).length);
  let syllables = 0;
  for (const word of words) syllables += countSyllables(word);
  const score = 206.835 - 1.015 * (words.length / sentences) - 84.6 * (syllables / words.length);
  return Math.round(Math.min(100, Math.max(0, score)));
}
