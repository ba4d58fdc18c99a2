/**
 * Loads the embedded English n-gram model. Until the n-gram file is derived this is the empty model.
 */
import { EmptyLanguageModel, type LanguageModel } from "./language-model.ts";

export function loadEnglishLanguageModel(): LanguageModel {
  return new EmptyLanguageModel();
}
