import { describe, expect, it } from "vitest";
import { checkedMimetype } from "./file-signature.js";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from("ftypisom")]);
const OGG = Buffer.from("OggS\0\x02");
const MP3 = Buffer.from("ID3\x04\0\0");
const EXE = Buffer.from("MZ\x90\0\x03\0");

describe("checkedMimetype", () => {
  it("keeps an image, video or audio type its bytes agree with", () => {
    expect(checkedMimetype(PNG, "image/png")).toBe("image/png");
    expect(checkedMimetype(JPEG, "image/jpeg")).toBe("image/jpeg");
    expect(checkedMimetype(MP4, "video/mp4")).toBe("video/mp4");
    expect(checkedMimetype(OGG, "audio/ogg; codecs=opus")).toBe("audio/ogg; codecs=opus");
    expect(checkedMimetype(MP3, "audio/mpeg")).toBe("audio/mpeg");
  });

  it("sends as a document what claims to be a picture, a video or a sound and is not", () => {
    expect(checkedMimetype(EXE, "image/png")).toBe("application/octet-stream");
    expect(checkedMimetype(PNG, "video/mp4")).toBe("application/octet-stream");
    expect(checkedMimetype(Buffer.alloc(0), "audio/ogg")).toBe("application/octet-stream");
  });

  it("leaves documents as declared: WhatsApp sends them as files whatever they hold", () => {
    expect(checkedMimetype(EXE, "application/pdf")).toBe("application/pdf");
    expect(checkedMimetype(PNG, "text/plain")).toBe("text/plain");
  });
});
