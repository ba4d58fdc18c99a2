import { and, count, eq, inArray } from "drizzle-orm";
import { scans, workspaces } from "../../schema/index.ts";
import { PLANS_WITH_PLAGIARISM } from "../config.ts";
import type { ServiceContext } from "../context/index.ts";
import { debit } from "../credits/index.ts";
import { type Issue, invalidBody, ServiceError } from "../errors.ts";
import { newScanId } from "../ids.ts";
import { writeTransaction } from "../store/db.ts";
import type { InTransaction, ScanOutcome } from "./detect.ts";
import { checkedWordCount, checkFolder, checkMetadata } from "./input.ts";
import { newScanRow, type ScanRequestFields, scanObject } from "./view.ts";

export const PLAGIARISM_COST_PER_WORD = 2; // spec 4.3
export const MAX_RUNNING_PLAGIARISM_SCANS = 10; // spec 8: per workspace
export const PLAGIARISM_RETRY_AFTER_S = 30; // spec 4.3
export const MAX_EXCLUDE_URLS = 50; // spec 8

export interface PlagiarismScanInput extends ScanRequestFields {
  excludeUrls?: string[];
  excludeQuotes?: boolean;
}

/** What the background job needs besides the text (stored in the scan's `options`). */
export interface PlagiarismJobOptions {
  exclude_urls: string[];
  exclude_quotes: boolean;
}

/**
 * Accepts a plagiarism check: plan gate, limits, then the charge and the `queued` scan in one transaction, where
 * the count of running checks is read under the write lock, so an 11th concurrent check can never slip in.
 * The check itself runs in the background (src/jobs).
 */
export function createPlagiarismScan(
  ctx: ServiceContext,
  workspaceId: string,
  input: PlagiarismScanInput,
  options: { inTransaction?: InTransaction } = {},
): ScanOutcome {
  const { db } = ctx;
  const workspace = db
    .select({ plan: workspaces.plan })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  if (!workspace || !PLANS_WITH_PLAGIARISM.has(workspace.plan)) {
    throw new ServiceError(
      "plan_required",
      `Plagiarism checks need plan Advanced or Team; this workspace is on ${workspace?.plan ?? "no"} plan.`,
    );
  }
  checkMetadata(input.metadata);
  checkExcludeUrls(input.excludeUrls);
  const words = checkedWordCount(input.text);
  checkFolder(db, workspaceId, input.folderId);
  const cost = words * PLAGIARISM_COST_PER_WORD;
  const jobOptions: PlagiarismJobOptions = {
    exclude_urls: input.excludeUrls ?? [],
    exclude_quotes: input.excludeQuotes ?? true,
  };
  const outcome = writeTransaction(db, (tx) => {
    const running = tx
      .select({ n: count() })
      .from(scans)
      .where(
        and(
          eq(scans.workspaceId, workspaceId),
          eq(scans.type, "plagiarism"),
          inArray(scans.status, ["queued", "processing"]),
        ),
      )
      .get();
    if ((running?.n ?? 0) >= MAX_RUNNING_PLAGIARISM_SCANS) {
      throw new ServiceError(
        "rate_limited",
        `${MAX_RUNNING_PLAGIARISM_SCANS} plagiarism checks are already running in this workspace; retry in ${PLAGIARISM_RETRY_AFTER_S} seconds.`,
        { retry_after: PLAGIARISM_RETRY_AFTER_S },
      );
    }
    const id = newScanId();
    const at = ctx.clock();
    const remaining = debit(tx, workspaceId, cost, id, at);
    const row = newScanRow(input, {
      id,
      workspaceId,
      type: "plagiarism",
      status: "queued",
      creditsUsed: cost,
      createdAt: at,
      options: { ...jobOptions },
      runAfter: at,
    });
    tx.insert(scans).values(row).run();
    const outcome = { scan: scanObject(row), balance: remaining };
    options.inTransaction?.(tx, outcome);
    return outcome;
  });
  ctx.wake.jobs.notify();
  return outcome;
}

function checkExcludeUrls(urls: string[] | undefined): void {
  if (urls === undefined) return;
  const issues: Issue[] = [];
  if (urls.length > MAX_EXCLUDE_URLS) {
    issues.push({ path: "/exclude_urls", message: `At most ${MAX_EXCLUDE_URLS} URLs, got ${urls.length}` });
  }
  urls.forEach((url, i) => {
    let ok = false;
    try {
      const parsed = new URL(url);
      ok = parsed.protocol === "http:" || parsed.protocol === "https:";
    } catch {}
    if (!ok) issues.push({ path: `/exclude_urls/${i}`, message: "Expected an http(s) URL" });
  });
  if (issues.length > 0) throw invalidBody(issues);
}
