import type { Clock } from "../time.ts";
import { systemClock } from "../time.ts";

const WINDOW_MS = 60_000; // spec 8: requests per minute

export interface RateState {
  limit: number;
  remaining: number;
  /** Whole seconds until the window ends (at least 1 while a window is open). */
  reset: number;
}

export type RateDecision =
  | { allowed: true; state: RateState }
  | { allowed: false; state: RateState; retryAfter: number };

/**
 * Fixed 60-second window per API key (DESIGN decision). Counts live in this process: one `textscan serve` is
 * the deployment unit; the scale-out plan moves them to the database or Redis.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly clock: Clock = systemClock) {}

  /** Counts one request for `keyId` against `limit` and says whether it may proceed. */
  take(keyId: string, limit: number): RateDecision {
    const now = this.clock();
    let window = this.windows.get(keyId);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, count: 0 };
      this.windows.set(keyId, window);
      this.sweep(now);
    }
    const reset = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
    if (window.count >= limit) {
      return { allowed: false, state: { limit, remaining: 0, reset }, retryAfter: reset };
    }
    window.count++;
    return { allowed: true, state: { limit, remaining: limit - window.count, reset } };
  }

  /** Drops windows that ended long ago so memory stays bounded by the keys active in the last minute. */
  private sweep(now: number): void {
    if (this.windows.size < 1024) return;
    for (const [key, window] of this.windows) {
      if (now - window.start >= WINDOW_MS) this.windows.delete(key);
    }
  }
}
