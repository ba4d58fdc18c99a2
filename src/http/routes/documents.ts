import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import type { ServiceContext } from "../../context/index.ts";
import type { ErrorCode } from "../../errors.ts";
import {
  createDocument,
  DEFAULT_PAGE_SIZE,
  deleteDocument,
  getDocument,
  listDocuments,
  MAX_DOCUMENT_WORDS,
  MAX_PAGE_SIZE,
  MAX_URL_LENGTH,
  MIN_DOCUMENT_WORDS,
} from "../../library/documents.ts";
import { principalOf } from "../context.ts";
import { committedResponse } from "../idempotent-response.ts";
import { registerOperationErrors } from "../openapi.ts";
import { Metadata, Title } from "../schemas.ts";

const POST_ERRORS: ErrorCode[] = [
  "invalid_idempotency_key",
  "idempotency_key_reused",
  "request_in_progress",
  "body_too_large",
];
registerOperationErrors("post /api/v1/documents", ["invalid_body", "too_short", "too_long", ...POST_ERRORS]);
registerOperationErrors("get /api/v1/documents", ["invalid_body"]);
registerOperationErrors("get /api/v1/documents/{id}", ["not_found"]);
registerOperationErrors("delete /api/v1/documents/{id}", ["not_found"]);

const CreateDocumentBody = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200, description: "1 to 200 characters." }),
  text: Type.String({
    description: `The document's text: ${MIN_DOCUMENT_WORDS} to ${MAX_DOCUMENT_WORDS.toLocaleString("en")} words.`,
  }),
  url: Type.Optional(
    Type.Union([Type.String({ maxLength: MAX_URL_LENGTH }), Type.Null()], {
      description: "Where the document lives, if anywhere (http or https); `exclude_urls` can name it.",
    }),
  ),
  metadata: Type.Optional(Metadata),
});

const Document = Type.Object(
  {
    id: Type.String({ pattern: "^doc_[0-9a-f]{32}$" }),
    object: Type.Literal("document"),
    title: Title,
    url: Type.Union([Type.String(), Type.Null()], {
      description: "Normalised (lower-case host, no fragment).",
    }),
    word_count: Type.Integer(),
    metadata: Type.Record(Type.String(), Type.String()),
    created_at: Type.String({ format: "date-time" }),
  },
  { $id: "Document" },
);

const IdParams = Type.Object({ id: Type.String() });
const ListQuery = Type.Object({
  // elysia's t.Integer accepts the numeric strings a query string carries.
  limit: Type.Optional(
    t.Integer({
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      description: `1-${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}.`,
    }),
  ),
  starting_after: Type.Optional(
    Type.String({ description: "A document id from the previous page: the page after it." }),
  ),
});

const TAGS = ["Documents"];

/**
 * The workspace library (added endpoints within v1): documents every plagiarism check of the workspace is
 * compared with. Free. Another workspace's document is `not_found`.
 */
export const documentRoutes = (ctx: ServiceContext) => {
  const { store } = ctx;
  const workspaceOf = (request: Request) => principalOf(request).workspaceId;
  return new Elysia({ name: "routes.documents" })
    .post(
      "/api/v1/documents",
      ({ body, request }) => {
        const response = committedResponse(request, 201);
        createDocument(
          store,
          workspaceOf(request),
          {
            title: body.title,
            text: body.text,
            ...(body.url !== undefined && { url: body.url }),
            ...(body.metadata !== undefined && { metadata: body.metadata }),
          },
          ctx.clock(),
          (document) => response.record(store.db, document),
        );
        return response.respond();
      },
      {
        parse: "json",
        body: CreateDocumentBody,
        response: { 201: Document },
        detail: {
          tags: TAGS,
          summary: "Add a document to the library",
          description:
            "Indexes a text of the workspace's own (a course reader, earlier submissions, internal reports): every " +
            "later plagiarism check of this workspace is compared with it, and a match names it as a source of " +
            `type \`document\` with its \`document_id\`. ${MIN_DOCUMENT_WORDS} to ` +
            `${MAX_DOCUMENT_WORDS.toLocaleString("en")} words (\`too_short\`/\`too_long\` otherwise). Free.`,
        },
      },
    )
    .get(
      "/api/v1/documents",
      ({ query, request }) =>
        listDocuments(store, workspaceOf(request), {
          ...(query.limit !== undefined && { limit: query.limit }),
          ...(query.starting_after !== undefined && { startingAfter: query.starting_after }),
        }),
      {
        query: ListQuery,
        response: {
          200: Type.Object({
            object: Type.Literal("list"),
            data: Type.Array(Document),
            has_more: Type.Boolean(),
          }),
        },
        detail: {
          tags: TAGS,
          summary: "List library documents",
          description:
            "Newest first. While `has_more` is true, ask again with `starting_after` set to the last id of the page.",
        },
      },
    )
    .get(
      "/api/v1/documents/:id",
      ({ params, request }) => getDocument(store, workspaceOf(request), params.id),
      {
        params: IdParams,
        response: { 200: Document },
        detail: { tags: TAGS, summary: "Retrieve a library document" },
      },
    )
    .delete(
      "/api/v1/documents/:id",
      ({ params, request }) => deleteDocument(store, workspaceOf(request), params.id),
      {
        params: IdParams,
        response: {
          200: Type.Object({
            id: Type.String(),
            object: Type.Literal("document"),
            deleted: Type.Literal(true),
          }),
        },
        detail: {
          tags: TAGS,
          summary: "Delete a library document",
          description:
            "Removes it and its fingerprints: later checks no longer find it. Completed scans keep their results.",
        },
      },
    );
};
