import { type AnyElysia, Elysia } from "elysia";
import scalarScript from "../../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with {
  type: "file",
};
import { buildOpenApiDocument } from "../openapi.ts";

const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>textscan API reference</title>
  </head>
  <body>
    <script id="api-reference" data-url="/api/v1/openapi.json"></script>
    <script src="/docs/scalar.js"></script>
  </body>
</html>`;

/**
 * The OpenAPI 3.1 document (no key needed, spec 4.7) and an interactive reference page. The page's script is
 * embedded in the binary, because the Scalar default loads it from a CDN, which an on-prem server cannot reach.
 */
export const docsRoutes = (api: AnyElysia) => {
  let document: unknown;
  return new Elysia({ name: "routes.docs" })
    .get(
      "/api/v1/openapi.json",
      () => {
        document ??= buildOpenApiDocument(api);
        return document;
      },
      { detail: { hide: true } },
    )
    .get(
      "/docs",
      () => new Response(DOCS_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
      {
        detail: { hide: true },
      },
    )
    .get(
      "/docs/scalar.js",
      () =>
        new Response(Bun.file(scalarScript), {
          headers: {
            "content-type": "text/javascript; charset=utf-8",
            "cache-control": "public, max-age=86400",
          },
        }),
      { detail: { hide: true } },
    );
};
