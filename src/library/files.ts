import { readFileSync } from "node:fs";
import { basename, extname } from "node:path";
import type { NewLibraryDocument } from "../fingerprints/index.ts";
import { TITLE_MAX } from "../scans/input.ts";
import { type ExtractedText, extractHtml, extractMarkdown, extractPlain } from "../webimport/index.ts";

/**
 * A file on disk as a library document: HTML by its main text (Readability) and <title>, Markdown as the words
 * a reader sees and its first heading, anything else as plain UTF-8 text. The title falls back to the file name.
 */

export class UnreadableFileError extends Error {
  override name = "UnreadableFileError";
}

const HTML = new Set([".html", ".htm", ".xhtml"]);
const MARKDOWN = new Set([".md", ".markdown", ".mdown", ".mkd"]);

export function readLibraryFile(path: string): NewLibraryDocument {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a directory"
          : code === "EACCES"
            ? "permission denied"
            : (error as Error).message;
    throw new UnreadableFileError(`cannot read it: ${why}`);
  }
  if (bytes.includes(0)) throw new UnreadableFileError("not a text file (it holds NUL bytes)");
  const raw = new TextDecoder("utf-8").decode(bytes); // drops a BOM; invalid bytes become U+FFFD
  const extension = extname(path).toLowerCase();
  let extracted: ExtractedText;
  if (HTML.has(extension)) extracted = extractHtml(raw);
  else if (MARKDOWN.has(extension)) extracted = extractMarkdown(raw);
  else extracted = extractPlain(raw);
  const fallback = basename(path, extname(path)) || basename(path);
  return { title: (extracted.title ?? fallback).slice(0, TITLE_MAX), text: extracted.text };
}
