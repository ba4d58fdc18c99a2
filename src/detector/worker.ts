import {
  type DetectOptions,
  detect,
  loadDetector,
  SUPPORTED_LANGUAGES,
  UnsupportedLanguageError,
} from "../detection/index.ts";
import { serveJobs } from "../workers/pool.ts";

// Load the model once, when the thread starts, not on the first request.
loadDetector();

serveJobs(
  ({ text, options }: { text: string; options: DetectOptions }) => detect(text, options),
  (error) =>
    error instanceof UnsupportedLanguageError
      ? {
          kind: "unsupported_language",
          message: error.message,
          data: { language: error.language, supported: [...SUPPORTED_LANGUAGES] },
        }
      : undefined,
);
