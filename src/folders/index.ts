import { and, asc, count, eq } from "drizzle-orm";
import { folders, scans } from "../../schema/index.ts";
import type { ServiceContext } from "../context/index.ts";
import { invalidBody, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { type DbOrTx, writeTransaction } from "../store/db.ts";
import { iso } from "../time.ts";

/** Dashboard folders: a workspace's named groups of scans (spec 4.2 `folder_id`). */
export const FOLDER_NAME_MAX = 100;
export const MAX_FOLDERS_PER_WORKSPACE = 1_000;

export interface FolderObject {
  id: string;
  object: "folder";
  name: string;
  scan_count: number;
  created_at: string;
}

type FolderRow = typeof folders.$inferSelect;

const folderObject = (row: FolderRow, scanCount: number): FolderObject => ({
  id: row.id,
  object: "folder",
  name: row.name,
  scan_count: scanCount,
  created_at: iso(row.createdAt),
});

function checkedName(name: unknown): string {
  const trimmed = typeof name === "string" ? name.trim() : "";
  if (trimmed.length < 1 || trimmed.length > FOLDER_NAME_MAX) {
    throw invalidBody([{ path: "/name", message: `A folder name is 1 to ${FOLDER_NAME_MAX} characters` }]);
  }
  return trimmed;
}

const scanCountOf = (db: DbOrTx, folderId: string) =>
  db.select({ n: count() }).from(scans).where(eq(scans.folderId, folderId)).get()?.n ?? 0;

function folderRow(db: DbOrTx, workspaceId: string, id: string): FolderRow {
  const row = db
    .select()
    .from(folders)
    .where(and(eq(folders.id, id), eq(folders.workspaceId, workspaceId)))
    .get();
  if (!row) throw notFound("folder", id);
  return row;
}

export function createFolder(
  ctx: ServiceContext,
  workspaceId: string,
  input: { name: string },
  inTransaction?: (folder: FolderObject) => void,
): FolderObject {
  const name = checkedName(input.name);
  return writeTransaction(ctx.db, (tx) => {
    const existing = tx
      .select({ n: count() })
      .from(folders)
      .where(eq(folders.workspaceId, workspaceId))
      .get();
    if ((existing?.n ?? 0) >= MAX_FOLDERS_PER_WORKSPACE) {
      throw invalidBody([
        { path: "", message: `A workspace may have at most ${MAX_FOLDERS_PER_WORKSPACE} folders.` },
      ]);
    }
    const row: FolderRow = { id: newId("fld_"), workspaceId, name, createdAt: ctx.clock() };
    tx.insert(folders).values(row).run();
    const folder = folderObject(row, 0);
    inTransaction?.(folder);
    return folder;
  });
}

export function listFolders(db: DbOrTx, workspaceId: string): FolderObject[] {
  return db
    .select({ row: folders, n: count(scans.id) })
    .from(folders)
    .leftJoin(scans, eq(scans.folderId, folders.id))
    .where(eq(folders.workspaceId, workspaceId))
    .groupBy(folders.id)
    .orderBy(asc(folders.name), asc(folders.id))
    .all()
    .map(({ row, n }) => folderObject(row, n));
}

export function getFolder(db: DbOrTx, workspaceId: string, id: string): FolderObject {
  return folderObject(folderRow(db, workspaceId, id), scanCountOf(db, id));
}

export function renameFolder(ctx: ServiceContext, workspaceId: string, id: string, input: { name: string }) {
  const name = checkedName(input.name);
  return writeTransaction(ctx.db, (tx) => {
    const row = folderRow(tx, workspaceId, id);
    tx.update(folders).set({ name }).where(eq(folders.id, id)).run();
    return folderObject({ ...row, name }, scanCountOf(tx, id));
  });
}

/**
 * Deletes a folder. Its scans stay (they are records of work done and charged), moved out of any folder, in
 * the same transaction.
 */
export function deleteFolder(ctx: ServiceContext, workspaceId: string, id: string) {
  return writeTransaction(ctx.db, (tx) => {
    folderRow(tx, workspaceId, id);
    tx.update(scans)
      .set({ folderId: null })
      .where(and(eq(scans.folderId, id), eq(scans.workspaceId, workspaceId)))
      .run();
    tx.delete(folders).where(eq(folders.id, id)).run();
    return { id, object: "folder" as const, deleted: true as const };
  });
}
