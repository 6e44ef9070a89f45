import { readFileSync } from "node:fs";
import { OggOpusDecoder } from "ogg-opus-decoder";
import { describe, expect, it } from "vitest";
import { mp3ToVoiceNote } from "./voice-note.js";

const tone = readFileSync(new URL("./fixtures/tone-1.5s.mp3", import.meta.url));

async function decode(ogg: Buffer) {
  const decoder = new OggOpusDecoder();
  await decoder.ready;
  try {
    return await decoder.decodeFile(new Uint8Array(ogg));
  } finally {
    decoder.free();
  }
}

describe("a voice note for WhatsApp", () => {
  it("turns the composer's MP3 into Ogg/Opus that decodes to the same length of the same sound", async () => {
    const note = await mp3ToVoiceNote(tone);
    expect(note.data.subarray(0, 4).toString("ascii")).toBe("OggS");
    expect(note.data.includes(Buffer.from("OpusHead"))).toBe(true);
    expect(note.seconds).toBe(2);
    const { channelData, samplesDecoded, sampleRate, errors } = await decode(note.data);
    expect(errors).toEqual([]);
    expect(sampleRate).toBe(48_000);
    expect(channelData).toHaveLength(1);
    // 1.5 s of tone (the MP3's own padding is a few ms either way)
    expect(samplesDecoded / sampleRate).toBeGreaterThan(1.45);
    expect(samplesDecoded / sampleRate).toBeLessThan(1.6);
    // still a 440 Hz tone: about 880 zero crossings a second, and loud
    const mid = channelData[0].subarray(12_000, 60_000);
    let crossings = 0;
    let energy = 0;
    for (let i = 1; i < mid.length; i++) {
      if (mid[i - 1] < 0 !== mid[i] < 0) crossings++;
      energy += mid[i] * mid[i];
    }
    const seconds = mid.length / sampleRate;
    expect(crossings / seconds).toBeGreaterThan(860);
    expect(crossings / seconds).toBeLessThan(900);
    expect(Math.sqrt(energy / mid.length)).toBeGreaterThan(0.15);
  });

  it("refuses what is not an MP3 instead of sending noise", async () => {
    await expect(mp3ToVoiceNote(Buffer.from("not an mp3 at all"))).rejects.toThrow();
  });
});
