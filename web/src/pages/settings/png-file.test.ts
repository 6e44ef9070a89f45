import { describe, expect, it } from "vitest";
import { isPngFile } from "./png-file";

const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe("isPngFile (the Marca tab's logo check)", () => {
  it("takes a file that starts with the PNG signature, whatever its name or type", async () => {
    expect(await isPngFile(new Blob([new Uint8Array([...signature, 0, 0, 0, 13])]))).toBe(true);
    expect(await isPngFile(new Blob([new Uint8Array(signature)], { type: "application/octet-stream" }))).toBe(true);
  });

  it("refuses other images, text, a cut signature and an empty file", async () => {
    expect(await isPngFile(new Blob(["GIF89a......"], { type: "image/png" }))).toBe(false);
    expect(await isPngFile(new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46])]))).toBe(false);
    expect(await isPngFile(new Blob([new Uint8Array(signature.slice(0, 7))]))).toBe(false);
    expect(await isPngFile(new Blob([]))).toBe(false);
    expect(await isPngFile(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x00])]))).toBe(false);
  });
});
