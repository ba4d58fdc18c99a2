import type { EventObject } from "../events/outbox.ts";
import { newEventId, newScanId } from "../ids.ts";
import type { ScanObject } from "../scans/index.ts";
import { iso } from "../time.ts";

/**
 * The `webhook.test` event (spec 6.1): a sample completed `ai_text` scan whose `metadata.test` is "true", so a
 * receiver can run its whole path (verify, parse, route) and recognise the sample. The scan id is fresh and
 * belongs to no stored scan.
 */
export function sampleTestEvent(now: number): EventObject<ScanObject> {
  const at = iso(now);
  return {
    id: newEventId(),
    object: "event",
    type: "webhook.test",
    created_at: at,
    data: {
      id: newScanId(),
      object: "scan",
      type: "ai_text",
      status: "completed",
      credits_used: 0,
      metadata: { test: "true" },
      created_at: at,
      completed_at: at,
      result: {
        human_score: 82,
        verdict: "human",
        ai_probability: 0.18,
        word_count: 48,
        sentence_count: 3,
        readability: 64,
        language: "en",
        sentences: [
          {
            text: "This is a sample scan sent by the Send test event action.",
            ai_probability: 0.12,
            verdict: "human",
            start: 0,
            end: 58,
          },
        ],
        model_version: "sample",
      },
      error: null,
      title: "Webhook test event",
      author: null,
      folder_id: null,
      source: "api",
    },
  };
}
