/**
 * CSV for the contacts export (core §2: semicolon separator; name, number, email). Cells that a
 * spreadsheet would run as a formula are prefixed with a quote (CSV injection).
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[";\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvRows(rows: { name: string; number: string; email: string }[]): string {
  return rows.map((r) => [r.name, r.number, r.email].map(csvCell).join(";")).join("\r\n");
}

type CsvContact = { name: string; number: string; email: string };

/**
 * The export as it is written: a BOM and the header, then one chunk per batch of contacts, pulled
 * only as fast as the client reads. Memory holds one batch, not the whole book.
 */
export async function* contactsCsv(batches: AsyncIterable<CsvContact[]>): AsyncGenerator<string> {
  yield "\ufeffname;number;email\r\n";
  for await (const rows of batches) if (rows.length) yield `${csvRows(rows)}\r\n`;
}
