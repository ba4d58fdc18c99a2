/**
 * The detection engine's public types. The API returns `DetectionResult` as the `result` of an `ai_text`
 * scan (spec 2.2); the fields beyond the spec (`ai_probability`, `model_version`, sentence offsets) are
 * additions allowed within v1.
 */
export type Verdict = "human" | "mixed" | "ai";

export interface SentenceResult {
  text: string;
  /** 0..1, three decimals. */
  ai_probability: number;
  verdict: Verdict;
  /** Character offsets (UTF-16 code units) of the sentence in the submitted text: text.slice(start, end). */
  start: number;
  end: number;
}

export interface DetectionResult {
  human_score: number;
  verdict: Verdict;
  ai_probability: number;
  word_count: number;
  sentence_count: number;
  readability: number;
  language: string | null;
  sentences?: SentenceResult[];
  model_version: string;
}

export interface DetectOptions {
  /** ISO 639-1 code requested by the caller; detected when omitted. */
  language?: string;
  /** Default true; false omits `sentences` from the result. */
  sentences?: boolean;
}
