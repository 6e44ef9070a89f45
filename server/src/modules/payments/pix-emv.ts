/**
 * The Pix "BR Code": an EMV® QR Code (Merchant-Presented Mode) payload as the Banco Central do Brasil's
 * BR Code manual profiles it, the text a bank app reads from the QR image or from "copia e cola".
 * Each field is ID (2 digits), length (2 digits) and value; the last one, 63, is a CRC16 over
 * everything before its value.
 */

export type PixPayloadInput = {
  /** The receiving Pix key (an e-mail, phone, CPF/CNPJ or random key), as registered. */
  key: string;
  merchantName: string;
  merchantCity: string;
  /** An exact decimal with two places ("199.90"), never a floating-point number; absent: the payer types it. */
  amount?: string;
  /** Alphanumeric, at most 25; "***" when the charge has none (the manual's static example). */
  txid: string;
  /** Field 01: "12" for a code meant to be paid once; absent as in the manual's static example. */
  pointOfInitiation?: "11" | "12";
  /** Field 26-02: a free text the payer sees (optional). */
  description?: string;
};

/** The field's TLV text; every value here is ASCII, so its length in characters is its length in bytes. */
function tlv(id: string, value: string): string {
  if (value.length > 99) throw new Error(`EMV field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, "0")}${value}`;
}

/**
 * CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR), which the
 * EMV QR specification names for field 63, as four upper-case hexadecimal digits.
 */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/**
 * Name and city in the payload: the BR Code allows only the EMV's common character set, so accents are
 * taken off ("São Paulo" → "Sao Paulo") and anything else outside printable ASCII is dropped; then cut
 * to the field's length.
 */
export function emvText(text: string, max: number): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, max)
    .trim();
}

const AMOUNT = /^\d{1,10}\.\d{2}$/;
const TXID = /^[A-Za-z0-9]{1,25}$/;

/** The whole payload, its CRC included. Throws on a value the standard cannot carry. */
export function pixPayload(input: PixPayloadInput): string {
  const key = input.key.trim();
  const name = emvText(input.merchantName, 25);
  const city = emvText(input.merchantCity, 15);
  if (!key || !name || !city) throw new Error("a Pix payload needs a key, a merchant name and a city");
  if (input.amount !== undefined && !AMOUNT.test(input.amount))
    throw new Error(`a Pix amount is a decimal with two places, at most 13 characters: ${input.amount}`);
  if (input.txid !== "***" && !TXID.test(input.txid)) throw new Error("a Pix txid is 1 to 25 letters and digits");
  const account = tlv("00", "br.gov.bcb.pix") + tlv("01", key) + (input.description ? tlv("02", input.description) : "");
  const body =
    tlv("00", "01") +
    (input.pointOfInitiation ? tlv("01", input.pointOfInitiation) : "") +
    tlv("26", account) +
    tlv("52", "0000") +
    // ISO 4217 numeric code of the Brazilian real: the BR Code fixes Pix to it, whatever currency the
    // operator's prices are shown in (secondary §9 shows MXN); the amount is charged as written
    tlv("53", "986") +
    (input.amount !== undefined ? tlv("54", input.amount) : "") +
    tlv("58", "BR") +
    tlv("59", name) +
    tlv("60", city) +
    tlv("62", tlv("05", input.txid)) +
    "6304";
  return body + crc16(body);
}

/** Whether a payload's own field 63 matches the CRC of what precedes it (a reader's check). */
export function pixCrcValid(payload: string): boolean {
  return payload.length > 8 && payload.slice(-8, -4) === "6304" && crc16(payload.slice(0, -4)) === payload.slice(-4);
}
