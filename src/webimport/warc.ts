import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from "node:zlib";

/**
 * A streaming reader of WARC files (ISO 28500, versions 1.0 and 1.1), plain or gzip-compressed (one gzip member
 * per record, as crawlers write them, or the whole file). Records are read one at a time, so a file of any size
 * is imported in bounded memory; a record whose block exceeds the size limit is skipped without being held.
 */

export class WarcFormatError extends Error {
  override name = "WarcFormatError";
}

export interface WarcRecord {
  /** `response`, `resource`, `request`, `metadata`, `warcinfo`, `revisit`, ... (lower case). */
  type: string;
  targetUri: string | null;
  /** WARC-Date as epoch ms, or null when absent or unreadable. */
  date: number | null;
  /** The record's own Content-Type (for a response: `application/http; msgtype=response`). */
  contentType: string;
  /** The record block, or null when it was longer than the limit and skipped. */
  block: Uint8Array | null;
  length: number;
}

const MAX_HEADER_LINE = 64 * 1024;

/** Pulls bytes from a stream on demand: lines for headers, exact lengths for blocks. */
class ByteReader {
  private readonly reader: { read(): Promise<{ done: boolean; value?: Uint8Array | undefined }> };
  private buffer: Uint8Array = new Uint8Array(0);
  private position = 0;
  private ended = false;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.reader = stream.getReader();
  }

  private get available() {
    return this.buffer.length - this.position;
  }

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const { done, value } = await this.reader.read();
    if (done || !value) {
      this.ended = true;
      return false;
    }
    this.buffer = this.available === 0 ? value : Buffer.concat([this.buffer.subarray(this.position), value]);
    this.position = 0;
    return true;
  }

  /** The next line without its CR LF, or null at the end of the stream. */
  async readLine(): Promise<string | null> {
    for (;;) {
      const newline = this.buffer.indexOf(10, this.position);
      if (newline >= 0) {
        const line = this.buffer.subarray(this.position, newline);
        this.position = newline + 1;
        return latin1(line).replace(/\r$/, "");
      }
      if (this.available > MAX_HEADER_LINE) throw new WarcFormatError("a header line is longer than 64 KiB");
      if (!(await this.fill())) {
        if (this.available === 0) return null;
        const rest = this.buffer.subarray(this.position);
        this.position = this.buffer.length;
        return latin1(rest).replace(/\r$/, "");
      }
    }
  }

  async read(length: number): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    let missing = length;
    while (missing > 0) {
      if (this.available === 0 && !(await this.fill())) {
        throw new WarcFormatError(`the file ends inside a record (${missing} bytes missing)`);
      }
      const take = Math.min(missing, this.available);
      parts.push(this.buffer.subarray(this.position, this.position + take));
      this.position += take;
      missing -= take;
    }
    return parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts);
  }

  async skip(length: number): Promise<void> {
    let missing = length;
    while (missing > 0) {
      if (this.available === 0 && !(await this.fill())) {
        throw new WarcFormatError(`the file ends inside a record (${missing} bytes missing)`);
      }
      const take = Math.min(missing, this.available);
      this.position += take;
      missing -= take;
    }
  }
}

const latin1 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");

export async function* readWarc(
  stream: ReadableStream<Uint8Array>,
  options: { maxBlockBytes: number },
): AsyncGenerator<WarcRecord> {
  const bytes = new ByteReader(stream);
  let index = 0;
  for (;;) {
    const first = await bytes.readLine();
    if (first === null) return;
    if (first.trim() === "") continue; // the CR LF CR LF that ends each record
    index++;
    if (!/^WARC\/\d+\.\d+$/.test(first.trim())) {
      throw new WarcFormatError(`record ${index} does not start with a WARC/1.x line`);
    }
    const headers = new Map<string, string>();
    let last: string | undefined;
    for (;;) {
      const line = await bytes.readLine();
      if (line === null) throw new WarcFormatError(`the file ends inside the header of record ${index}`);
      if (line === "") break;
      if (/^[ \t]/.test(line) && last !== undefined) {
        headers.set(last, `${headers.get(last) ?? ""} ${line.trim()}`);
        continue;
      }
      const colon = line.indexOf(":");
      if (colon <= 0) throw new WarcFormatError(`record ${index} has a header line without a name`);
      last = line.slice(0, colon).trim().toLowerCase();
      headers.set(last, line.slice(colon + 1).trim());
    }
    const length = Number(headers.get("content-length"));
    if (!Number.isSafeInteger(length) || length < 0) {
      throw new WarcFormatError(`record ${index} has no valid Content-Length`);
    }
    let block: Uint8Array | null = null;
    if (length > options.maxBlockBytes) await bytes.skip(length);
    else block = await bytes.read(length);
    const date = Date.parse(headers.get("warc-date") ?? "");
    yield {
      type: (headers.get("warc-type") ?? "").toLowerCase(),
      targetUri: headers.get("warc-target-uri")?.replace(/^<(.*)>$/, "$1") ?? null,
      date: Number.isNaN(date) ? null : date,
      contentType: headers.get("content-type") ?? "",
      block,
      length,
    };
  }
}

/** A WARC file's bytes, decompressed when it is a .warc.gz (recognised by its magic number, not its name). */
export async function openWarcFile(path: string): Promise<ReadableStream<Uint8Array>> {
  const file = Bun.file(path);
  const magic = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  const stream = file.stream();
  return magic[0] === 0x1f && magic[1] === 0x8b
    ? stream.pipeThrough(
        new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>,
      )
    : stream;
}

export interface HttpResponse {
  status: number;
  /** Header names in lower case. */
  headers: Map<string, string>;
  /** The body with transfer and content encodings undone. */
  body: Uint8Array;
}

/** The HTTP response a `response` record holds, as the crawler received it; null when it is not one. */
export function parseHttpResponse(block: Uint8Array): HttpResponse | null {
  let end = indexOfSequence(block, [13, 10, 13, 10]);
  let separator = 4;
  if (end < 0) {
    end = indexOfSequence(block, [10, 10]);
    separator = 2;
  }
  if (end < 0) return null;
  const lines = latin1(block.subarray(0, end)).split(/\r?\n/);
  const status = /^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(lines[0] ?? "");
  if (!status) return null;
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  let body: Uint8Array = block.subarray(end + separator);
  if (/chunked/i.test(headers.get("transfer-encoding") ?? "")) body = dechunk(body) ?? body;
  const encoding = (headers.get("content-encoding") ?? "").trim().toLowerCase();
  try {
    if (encoding === "gzip" || encoding === "x-gzip") body = gunzipSync(body);
    else if (encoding === "br") body = brotliDecompressSync(body);
    else if (encoding === "deflate") {
      try {
        body = inflateSync(body);
      } catch {
        body = inflateRawSync(body); // servers send both forms under this name
      }
    }
  } catch {
    return null;
  }
  return { status: Number(status[1]), headers, body };
}

/** Undoes chunked transfer coding; null when the body is not validly chunked (some crawlers store it decoded). */
function dechunk(body: Uint8Array): Uint8Array | null {
  const parts: Uint8Array[] = [];
  let position = 0;
  for (;;) {
    const lineEnd = body.indexOf(10, position);
    if (lineEnd < 0) return null;
    const size = Number.parseInt(latin1(body.subarray(position, lineEnd)).split(";")[0]?.trim() ?? "", 16);
    if (Number.isNaN(size)) return null;
    position = lineEnd + 1;
    if (size === 0) return Buffer.concat(parts);
    if (position + size > body.length) return null;
    parts.push(body.subarray(position, position + size));
    position += size;
    if (body[position] === 13) position++;
    if (body[position] === 10) position++;
  }
}

function indexOfSequence(haystack: Uint8Array, needle: number[]): number {
  const first = needle[0] as number;
  for (let i = haystack.indexOf(first); i >= 0; i = haystack.indexOf(first, i + 1)) {
    if (needle.every((byte, j) => haystack[i + j] === byte)) return i;
  }
  return -1;
}
