import { scans } from "../../schema/index.ts";
import type { ServiceContext } from "../context/index.ts";
import { errorMessage } from "../context/log.ts";
import { currentBalance, debit } from "../credits/index.ts";
import { type DetectionResult, UnsupportedLanguageError } from "../detection/index.ts";
import type { Detector } from "../detector/index.ts";
import { invalidBody, ServiceError } from "../errors.ts";
import { recordEvent } from "../events/outbox.ts";
import { newScanId } from "../ids.ts";
import { type Tx, writeTransaction } from "../store/db.ts";
import { checkedWordCount, checkFolder, checkMetadata } from "./input.ts";
import { newScanRow, type ScanObject, type ScanRequestFields, scanObject } from "./view.ts";

export interface AiTextScanInput extends ScanRequestFields {
  language?: string;
  sentences?: boolean;
}

export interface ScanOutcome {
  scan: ScanObject;
  /** The workspace balance after the charge (X-Credits-Remaining). */
  balance: number;
}

/** Runs inside the scan's transaction, after its rows are written (e.g. to store the idempotent response). */
export type InTransaction = (tx: Tx, outcome: ScanOutcome) => void;

const COST_PER_WORD = 1; // spec 4.2

/**
 * Scores a text and records it as a completed `ai_text` scan. The engine runs before the transaction (it is
 * pure CPU work); the charge, the scan row and its `scan.completed` event then commit together, so a scan never
 * exists without its charge and `insufficient_credits` writes nothing (invariants 1 and 2).
 */
export async function createAiTextScan(
  ctx: ServiceContext,
  detector: Detector,
  workspaceId: string,
  input: AiTextScanInput,
  options: { inTransaction?: InTransaction } = {},
): Promise<ScanOutcome> {
  const { db } = ctx;
  checkMetadata(input.metadata);
  const words = checkedWordCount(input.text);
  checkFolder(db, workspaceId, input.folderId);
  const cost = words * COST_PER_WORD;
  // A cheap early refusal so that a workspace without credits does not spend CPU; the debit below decides.
  const balance = db.transaction((tx) => currentBalance(tx, workspaceId));
  if (balance < cost) {
    throw new ServiceError(
      "insufficient_credits",
      `This scan costs ${cost} credits and the workspace has ${balance}.`,
      {
        cost,
        balance,
      },
    );
  }
  const result = await runDetector(ctx, detector, input, workspaceId);
  const outcome = writeTransaction(db, (tx) => {
    const id = newScanId();
    const at = ctx.clock();
    const remaining = debit(tx, workspaceId, cost, id, at);
    const row = newScanRow(input, {
      id,
      workspaceId,
      type: "ai_text",
      status: "completed",
      creditsUsed: cost,
      createdAt: at,
      completedAt: at,
      result: result as unknown as Record<string, unknown>,
      options: { language: input.language ?? null, sentences: input.sentences ?? true },
    });
    tx.insert(scans).values(row).run();
    const scan = scanObject(row);
    recordEvent(tx, { workspaceId, type: "scan.completed", data: scan, scanId: id, now: at });
    const outcome = { scan, balance: remaining };
    options.inTransaction?.(tx, outcome);
    return outcome;
  });
  ctx.wake.outbox.notify();
  return outcome;
}

async function runDetector(
  ctx: ServiceContext,
  detector: Detector,
  input: AiTextScanInput,
  workspaceId: string,
): Promise<DetectionResult> {
  try {
    const options: { language?: string; sentences?: boolean } = { sentences: input.sentences ?? true };
    if (input.language !== undefined) options.language = input.language;
    return await detector.score(input.text, options, workspaceId);
  } catch (error) {
    if (error instanceof UnsupportedLanguageError) {
      throw invalidBody([{ path: "/language", message: error.message }]);
    }
    // The engine is pure: anything it throws is a fault on our side that a retry may not cure at once.
    ctx.logger.error("detection.failed", { error: errorMessage(error) });
    throw new ServiceError("unavailable");
  }
}
