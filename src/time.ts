/** Renders an epoch-millisecond timestamp as ISO 8601 UTC (spec 1: timestamps). */
export const iso = (ms: number): string => new Date(ms).toISOString();

export const isoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : iso(ms));

/** The calendar month of a timestamp in UTC, "YYYY-MM": the unit of the monthly allowance. */
export const monthOf = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/** A source of "now", injectable so that tests of time-dependent rules need no sleeps. */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();
