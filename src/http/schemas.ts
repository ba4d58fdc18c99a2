import { Type } from "@sinclair/typebox";
import {
  AUTHOR_MAX,
  METADATA_KEY_MAX,
  METADATA_MAX_PAIRS,
  METADATA_VALUE_MAX,
  TITLE_MAX,
} from "../scans/input.ts";

/**
 * TypeBox schemas of the wire format: the single source of request validation, response types and the
 * OpenAPI document. Strict @sinclair/typebox types are used on purpose: elysia's `t.Integer` accepts numeric
 * strings, which the contract does not.
 */
export const Metadata = Type.Record(
  Type.String({ pattern: `^[\\s\\S]{1,${METADATA_KEY_MAX}}$` }),
  Type.String({ maxLength: METADATA_VALUE_MAX }),
  {
    maxProperties: METADATA_MAX_PAIRS,
    description: `Up to ${METADATA_MAX_PAIRS} string pairs; keys 1-${METADATA_KEY_MAX} characters, values up to ${METADATA_VALUE_MAX}.`,
  },
);

export const ScanText = Type.String({ description: "40 to 25,000 words." });
export const Title = Type.String({ maxLength: TITLE_MAX, description: "Scan name shown in the dashboard." });
export const Author = Type.String({ maxLength: AUTHOR_MAX });
export const FolderId = Type.String({
  description: "Dashboard folder; an unknown id fails with invalid_body.",
});

export const DetectBody = Type.Object({
  text: ScanText,
  language: Type.Optional(
    Type.String({
      pattern: "^[A-Za-z]{2}$",
      description: "ISO 639-1 code; detected automatically when omitted.",
    }),
  ),
  title: Type.Optional(Title),
  author: Type.Optional(Author),
  folder_id: Type.Optional(FolderId),
  sentences: Type.Optional(
    Type.Boolean({ default: true, description: "false omits `sentences` from the result." }),
  ),
  metadata: Type.Optional(Metadata),
});
export type DetectBody = typeof DetectBody.static;

const Verdict = Type.Union([Type.Literal("human"), Type.Literal("mixed"), Type.Literal("ai")]);

export const SentenceResult = Type.Object({
  text: Type.String(),
  ai_probability: Type.Number({ minimum: 0, maximum: 1 }),
  verdict: Verdict,
  start: Type.Integer({ description: "Offset of the sentence in the submitted text (UTF-16 code units)." }),
  end: Type.Integer(),
});

export const AiTextResult = Type.Object(
  {
    human_score: Type.Integer({ minimum: 0, maximum: 100 }),
    verdict: Verdict,
    ai_probability: Type.Number({ minimum: 0, maximum: 1, description: "Added within v1." }),
    word_count: Type.Integer(),
    sentence_count: Type.Integer(),
    readability: Type.Integer({ minimum: 0, maximum: 100 }),
    language: Type.Union([Type.String(), Type.Null()]),
    sentences: Type.Optional(Type.Array(SentenceResult)),
    model_version: Type.String({ description: "Added within v1." }),
  },
  { title: "AiTextResult" },
);

export const PlagiarismResult = Type.Object(
  {
    similarity: Type.Number({
      minimum: 0,
      maximum: 100,
      description: "Share of words matching a source, one decimal.",
    }),
    word_count: Type.Integer(),
    matched_words: Type.Integer(),
    sources: Type.Array(
      Type.Object({
        type: Type.Union([Type.Literal("web"), Type.Literal("document")]),
        url: Type.Union([Type.String(), Type.Null()]),
        title: Type.String(),
        document_id: Type.Optional(
          Type.String({ description: "Added within v1: the library document (`doc_...`)." }),
        ),
        matched_words: Type.Integer(),
        percent: Type.Number(),
        excerpt: Type.Union([Type.String(), Type.Null()]),
        matches: Type.Array(
          Type.Object({
            start: Type.Integer(),
            end: Type.Integer(),
            source_start: Type.Integer(),
            source_end: Type.Integer(),
            matched_words: Type.Integer(),
          }),
          {
            description: "Added within v1: offsets of each passage in the submitted text and in the source.",
          },
        ),
      }),
    ),
  },
  { title: "PlagiarismResult" },
);

export const ScanError = Type.Object({ code: Type.String(), message: Type.String() });

export const Scan = Type.Object(
  {
    id: Type.String({ pattern: "^scn_[0-9a-f]{32}$" }),
    object: Type.Literal("scan"),
    type: Type.Union([Type.Literal("ai_text"), Type.Literal("plagiarism"), Type.Literal("ai_image")]),
    status: Type.Union([
      Type.Literal("queued"),
      Type.Literal("processing"),
      Type.Literal("completed"),
      Type.Literal("failed"),
    ]),
    credits_used: Type.Integer(),
    metadata: Type.Record(Type.String(), Type.String()),
    created_at: Type.String({ format: "date-time" }),
    completed_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
    result: Type.Union([
      Type.Object(
        {},
        { additionalProperties: true, description: "AiTextResult or PlagiarismResult by `type`." },
      ),
      Type.Null(),
    ]),
    error: Type.Union([ScanError, Type.Null()]),
    title: Type.Union([Type.String(), Type.Null()], { description: "Added within v1." }),
    author: Type.Union([Type.String(), Type.Null()], { description: "Added within v1." }),
    folder_id: Type.Union([Type.String(), Type.Null()], { description: "Added within v1." }),
    source: Type.Union([Type.Literal("api"), Type.Literal("dashboard"), Type.Literal("cli")], {
      description: "Added within v1: what created the scan.",
    }),
  },
  { title: "Scan" },
);

export const Usage = Type.Object(
  {
    object: Type.Literal("usage"),
    workspace_id: Type.String({ format: "uuid" }),
    plan: Type.Union([
      Type.Literal("free"),
      Type.Literal("essential"),
      Type.Literal("advanced"),
      Type.Literal("team"),
    ]),
    credits: Type.Object({ balance: Type.Integer(), monthly_allowance: Type.Integer() }),
    rate_limit: Type.Object({ limit: Type.Integer(), remaining: Type.Integer(), reset: Type.Integer() }),
  },
  { title: "Usage" },
);

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      type: Type.Union(
        [
          "invalid_request_error",
          "authentication_error",
          "billing_error",
          "permission_error",
          "rate_limit_error",
          "api_error",
        ].map((t) => Type.Literal(t)),
      ),
      code: Type.String(),
      message: Type.String(),
      request_id: Type.String(),
      issues: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
      cost: Type.Optional(Type.Integer()),
      balance: Type.Optional(Type.Integer()),
      retry_after: Type.Optional(Type.Integer()),
    }),
  },
  { title: "Error" },
);

export const ScanIdParams = Type.Object({
  id: Type.String({ description: "scn_ followed by 32 hex characters." }),
});
