import { detect, loadDetector, SUPPORTED_LANGUAGES, UnsupportedLanguageError } from "../detection/index.ts";
import type { WorkerReply, WorkerRequest } from "./protocol.ts";

declare const self: Worker;

// Load the model once, when the thread starts, not on the first request.
loadDetector();

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const { id, text, options } = event.data;
  let reply: WorkerReply;
  try {
    reply = { id, ok: true, result: detect(text, options) };
  } catch (error) {
    reply =
      error instanceof UnsupportedLanguageError
        ? {
            id,
            ok: false,
            error: {
              kind: "unsupported_language",
              language: error.language,
              supported: [...SUPPORTED_LANGUAGES],
            },
          }
        : { id, ok: false, error: { kind: "failure", message: (error as Error).message ?? String(error) } };
  }
  self.postMessage(reply);
};
