/**
 * Loads the embedded English n-gram model (english-lm.bin, derived from Debian's pocketsphinx-en-us by
 * scripts/detector-derive-lm.ts). Imported `with { type: "file" }` so `bun build --compile` embeds it.
 */
import { readFileSync } from "node:fs";
import englishLmPath from "./english-lm.bin" with { type: "file" };
import type { LanguageModel } from "./language-model.ts";
import { decodeLanguageModelFile } from "./ngram-file.ts";
import { NgramLanguageModel } from "./ngram-model.ts";

export const ENGLISH_LM_PATH = englishLmPath as unknown as string;

export function loadEnglishLanguageModel(path: string = ENGLISH_LM_PATH): LanguageModel {
  return new NgramLanguageModel(decodeLanguageModelFile(new Uint8Array(readFileSync(path))));
}
