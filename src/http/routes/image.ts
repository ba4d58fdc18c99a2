import { Elysia } from "elysia";
import { ServiceError } from "../../errors.ts";

export const imageRoutes = () =>
  new Elysia({ name: "routes.image" }).post(
    "/api/v1/image",
    () => {
      throw new ServiceError("not_available", "Image detection is announced but not live yet (spec 4.6).");
    },
    {
      // The body is never read: the endpoint answers 501 once the key is checked.
      parse: "none",
      detail: {
        tags: ["Scans"],
        summary: "Detect AI-generated images (not live)",
        description: "Announced, not live: answers 501 `not_available` after authentication.",
      },
    },
  );
