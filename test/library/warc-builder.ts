import { gzipSync } from "node:zlib";

/** Builds WARC 1.1 files for tests, record by record, as a crawler writes them. */

const encoder = new TextEncoder();
const bytes = (value: string | Uint8Array) => (typeof value === "string" ? encoder.encode(value) : value);

export function warcRecord(
  type: string,
  targetUri: string | null,
  contentType: string,
  block: string | Uint8Array,
  date = "2026-11-01T10:00:00Z",
): Uint8Array {
  const body = bytes(block);
  const header = [
    "WARC/1.1",
    `WARC-Type: ${type}`,
    `WARC-Record-ID: <urn:uuid:${crypto.randomUUID()}>`,
    `WARC-Date: ${date}`,
    ...(targetUri ? [`WARC-Target-URI: ${targetUri}`] : []),
    `Content-Type: ${contentType}`,
    `Content-Length: ${body.byteLength}`,
    "",
    "",
  ].join("\r\n");
  return Buffer.concat([bytes(header), body, bytes("\r\n\r\n")]);
}

/** An HTTP response as stored in a `response` record: status line, headers, raw body. */
export function httpResponse(status: number, headers: Record<string, string>, body: string | Uint8Array) {
  const head = `HTTP/1.1 ${status} ${status === 200 ? "OK" : "Status"}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;
  return Buffer.concat([bytes(head), bytes(body)]);
}

/** Chunked transfer coding of a body, in chunks of `size` bytes. */
export function chunked(body: string | Uint8Array, size = 64): Uint8Array {
  const raw = bytes(body);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < raw.byteLength; i += size) {
    const chunk = raw.subarray(i, i + size);
    parts.push(bytes(`${chunk.byteLength.toString(16)}\r\n`), chunk, bytes("\r\n"));
  }
  parts.push(bytes("0\r\n\r\n"));
  return Buffer.concat(parts);
}

/** The records as one file; gzip-compressed member by member (as .warc.gz files are) when asked. */
export function warcFile(records: Uint8Array[], gzip = false): Uint8Array {
  return Buffer.concat(gzip ? records.map((record) => gzipSync(record)) : records);
}

export { gzipSync };
