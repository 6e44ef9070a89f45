import { describe, expect, it } from "vitest";
import { ContactCard, locationBody, locationOfBody, parseVcard, SharedLocation, vcardBody } from "./shares.js";

describe("shared locations and contact cards", () => {
  it("writes a location body of core §2 and reads its coordinates back, whichever separator the link used", () => {
    const body = locationBody({ latitude: -23.5505, longitude: -46.6333, description: "Paulista | 1000" });
    expect(body).toBe("|https://maps.google.com/maps?q=-23.5505%2C-46.6333&z=17|Paulista | 1000");
    expect(locationOfBody(body)).toEqual({ latitude: -23.5505, longitude: -46.6333, description: "Paulista | 1000" });
    expect(locationOfBody("|https://maps.google.com/maps?q=1,2&z=17|")).toEqual({ latitude: 1, longitude: 2 });
    expect(locationOfBody("data:image/jpeg;base64,AAAA|https://maps.google.com/maps?q=1.5%2C-2&z=17|x")).toEqual({
      latitude: 1.5,
      longitude: -2,
      description: "x",
    });
    expect(locationOfBody("sin coordenadas")).toBeNull();
  });

  it("refuses coordinates out of range and numbers that are not numbers", () => {
    expect(SharedLocation.safeParse({ latitude: 90.1, longitude: 0 }).success).toBe(false);
    expect(SharedLocation.safeParse({ latitude: 0, longitude: -180.5 }).success).toBe(false);
    expect(ContactCard.safeParse({ name: "Ana", number: "<script>" }).success).toBe(false);
    expect(ContactCard.safeParse({ name: "Ana", number: "+55 (11) 9999-0000" }).success).toBe(true);
  });

  it("builds a vCard whose name cannot add fields, and reads name and number back", () => {
    const body = vcardBody({ name: "Ana\r\nTEL:+000;x\\", number: "+55 11 99990000" });
    expect(body.split("\n")).toHaveLength(6);
    expect(parseVcard(body)).toEqual({ name: "Ana  TEL:+000 x", number: "551199990000" });
    expect(parseVcard("BEGIN:VCARD\nN:López;Ana;;;\nitem1.TEL:+1 555\nEND:VCARD")).toEqual({
      name: "Ana López",
      number: "+1 555",
    });
  });
});
