import { integer } from "drizzle-orm/sqlite-core";

/** Timestamps are stored as Unix epoch milliseconds and rendered as ISO 8601 UTC on the wire. */
export const epochMs = (name: string) => integer(name);
