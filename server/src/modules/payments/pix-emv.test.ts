import { describe, expect, it } from "vitest";
import { crc16, emvText, pixCrcValid, pixPayload } from "./pix-emv.js";
import { pixProvider, pixTxid } from "./provider.js";

/** Reads a TLV text into its fields (a test's reader of what the builder wrote). */
function fields(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < text.length; ) {
    const id = text.slice(i, i + 2);
    const len = Number(text.slice(i + 2, i + 4));
    out[id] = text.slice(i + 4, i + 4 + len);
    i += 4 + len;
  }
  return out;
}

/*
 * Published payloads, each with the CRC its publisher printed:
 * - the static example of the Banco Central do Brasil's BR Code manual (key, name, city, no amount);
 * - the manual's dynamic example (a PSP's URL in 26-25, amount 123.45, txid RP12345678-2019);
 * - codes published in public repositories' documentation and tests (amount, description, txid).
 */
const PUBLISHED = {
  bcbStatic:
    "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D",
  bcbDynamic:
    "00020101021226720014br.gov.bcb.pix2550bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd4415204000053039865406123.455802BR5913Fulano de Tal6008BRASILIA62190515RP12345678-2019630445C8",
  withDescription:
    "00020126670014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400000205Teste52040000530398654045.005802BR5913Fulano de Tal6008BRASILIA6207050312363040E95",
  withAmount:
    "00020126580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-42665544000052040000530398654041.005802BR5913Fulano de Tal6008BRASILIA62070503***630451B8",
  withTxid:
    "0002010101021226630014BR.GOV.BCB.PIX0132420ab7c44d6346d4809ecd3eebc129ec0205BARBA52040000530398654041.005802BR5922RAFAEL DE ANDRADE DIAS6004LAJE62160512AG000000023863047C58",
};

describe("CRC16 (EMV field 63)", () => {
  it("is CRC-16/CCITT-FALSE: the catalogue's check value of '123456789' is 29B1", () => {
    expect(crc16("123456789")).toBe("29B1");
    expect(crc16("")).toBe("FFFF");
  });

  it("equals the CRC printed on every published payload", () => {
    for (const [name, payload] of Object.entries(PUBLISHED)) {
      expect(crc16(payload.slice(0, -4)), name).toBe(payload.slice(-4));
      expect(pixCrcValid(payload), name).toBe(true);
    }
    // one character changed anywhere: the check fails
    expect(pixCrcValid(PUBLISHED.bcbStatic.replace("Fulano", "Fulana"))).toBe(false);
    expect(pixCrcValid(`${PUBLISHED.bcbStatic.slice(0, -1)}E`)).toBe(false);
  });
});

describe("pixPayload", () => {
  it("writes the BR Code manual's static example exactly", () => {
    expect(
      pixPayload({
        key: "123e4567-e12b-12d1-a456-426655440000",
        merchantName: "Fulano de Tal",
        merchantCity: "BRASILIA",
        txid: "***",
      }),
    ).toBe(PUBLISHED.bcbStatic);
  });

  it("writes a published payload with a description, an amount and a txid exactly", () => {
    expect(
      pixPayload({
        key: "123e4567-e12b-12d1-a456-426655440000",
        description: "Teste",
        merchantName: "Fulano de Tal",
        merchantCity: "BRASILIA",
        amount: "5.00",
        txid: "123",
      }),
    ).toBe(PUBLISHED.withDescription);
  });

  it("carries the invoice's exact amount, BRL (986), BR, the txid and a valid CRC; names without accents, cut to size", () => {
    const payload = pixPayload({
      key: "pagos@charla.example",
      merchantName: "Comércio São João de Açaí Ltda ME",
      merchantCity: "São José dos Pinhais",
      amount: "1999999.90",
      txid: "CH12XABCDEF",
      pointOfInitiation: "12",
    });
    const f = fields(payload);
    expect(f).toMatchObject({
      "00": "01",
      "01": "12",
      "52": "0000",
      "53": "986",
      "54": "1999999.90",
      "58": "BR",
      "59": "Comercio Sao Joao de Acai",
      "60": "Sao Jose dos Pi",
      "62": "0511CH12XABCDEF",
    });
    expect(fields(f["26"])).toEqual({ "00": "br.gov.bcb.pix", "01": "pagos@charla.example" });
    expect(f["59"].length).toBeLessThanOrEqual(25);
    expect(f["60"].length).toBeLessThanOrEqual(15);
    expect(payload).toMatch(/6304[0-9A-F]{4}$/);
    expect(pixCrcValid(payload)).toBe(true);
    expect(payload).toMatch(/^[\x20-\x7e]+$/);
  });

  it("refuses what the standard cannot carry: a float-looking or long amount, a bad txid, a missing key or name", () => {
    const base = { key: "k@x.co", merchantName: "Charla", merchantCity: "Recife", txid: "T1" };
    for (const amount of ["199.9", "199", "1e3", "-1.00", "12345678901.00", "199.900"])
      expect(() => pixPayload({ ...base, amount }), amount).toThrow();
    for (const txid of ["", "a-b", "x".repeat(26), "ção"]) expect(() => pixPayload({ ...base, txid }), txid).toThrow();
    expect(() => pixPayload({ ...base, key: " " })).toThrow();
    expect(() => pixPayload({ ...base, merchantName: "ããã" })).not.toThrow();
    expect(() => pixPayload({ ...base, merchantName: "—" })).toThrow();
  });

  it("emvText keeps printable ASCII only", () => {
    expect(emvText("  Ñandú  Café\n", 25)).toBe("Nandu Cafe");
    expect(emvText("Zürich-€", 15)).toBe("Zurich-");
  });
});

describe("the pix provider", () => {
  it("makes txids of letters and digits, at most 25, naming the invoice, each new", () => {
    const seen = new Set<string>();
    for (const id of [1, 42, 2_147_483_647]) {
      for (let i = 0; i < 50; i++) {
        const txid = pixTxid(id);
        expect(txid).toMatch(/^[A-Za-z0-9]{1,25}$/);
        expect(txid.startsWith(`CH${id}X`)).toBe(true);
        seen.add(txid);
      }
    }
    expect(seen.size).toBe(150);
  });

  it("charges the amount it is given, in a payload for the configured key", async () => {
    const p = pixProvider({ pixKey: "+5581999990000", pixMerchantName: "Charla Serviços", pixMerchantCity: "Recife" });
    const charge = await p.charge({ invoiceId: 7, txid: "CH7XAAAA", amount: "199.90" });
    expect(charge).toMatchObject({ txid: "CH7XAAAA", amount: "199.90" });
    const f = fields(charge.payload);
    expect(f["54"]).toBe("199.90");
    expect(f["59"]).toBe("Charla Servicos");
    expect(fields(f["26"])["01"]).toBe("+5581999990000");
    expect(pixCrcValid(charge.payload)).toBe(true);
  });
});
