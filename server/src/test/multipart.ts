import { randomUUID } from "node:crypto";

/** One file as a multipart/form-data body for `app.inject` (field, file name, declared type, bytes). */
export function multipart(field: string, filename: string, type: string, data: Buffer) {
  const boundary = `----charla${randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n`),
    Buffer.from(`Content-Type: ${type}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}
