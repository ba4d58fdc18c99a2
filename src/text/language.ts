/**
 * Language identification with franc-min (trigram profiles of 82 widely spoken languages), answered in
 * ISO 639-1. Returns null when unsure: too little text, franc's "und", a language without a 639-1 code, or two
 * candidates too close to call.
 */
import { francAll } from "franc-min";
import { iso6393To1 } from "iso-639-3";

/** Below this many letters franc's guesses are unreliable. */
const MIN_LETTERS = 20;
/** franc scores are normalised to the best candidate (1.0); a runner-up this close means "unsure". */
const MIN_MARGIN = 0.02;
/** Characters read: plenty for trigram statistics, and it bounds the cost (franc itself stops at 2,048). */
const SAMPLE_CHARS = 1000;

export function detectLanguage(text: string): string | null {
  const sample = text.slice(0, SAMPLE_CHARS);
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  if (letters < MIN_LETTERS) return null;
  const ranked = francAll(sample, { minLength: MIN_LETTERS });
  const best = ranked[0];
  if (!best || best[0] === "und") return null;
  const runnerUp = ranked[1];
  if (runnerUp && best[1] - runnerUp[1] < MIN_MARGIN && iso6393To1[runnerUp[0]] !== iso6393To1[best[0]]) {
    return null;
  }
  return iso6393To1[best[0]] ?? null;
}
