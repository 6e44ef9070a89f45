import { pcmToInt16, resamplePcm } from "@charla/contracts";
/**
 * WhatsApp plays a voice note only as Ogg/Opus: an MP3 marked as one (what the composer records,
 * core §9) shows as unplayable on the phone. This turns it into Ogg/Opus in the process, with no
 * ffmpeg on the machine: mpg123 and libopus compiled to WebAssembly, and the Ogg pages written here.
 * Both are loaded with the first voice note: a server that sends none never holds them in memory.
 */
const RATE = 48_000;
const FRAME = 960; // 20 ms at 48 kHz
const BITRATE = 32_000;
/** libopus' encoder delay at 48 kHz, which players skip (RFC 7845 pre-skip). */
const PRE_SKIP = 312;
const MAX_SECONDS = 30 * 60;

export type VoiceNote = { data: Buffer; seconds: number };

export async function mp3ToVoiceNote(mp3: Buffer): Promise<VoiceNote> {
  const pcm = await decodeMp3(mp3);
  const packets = await encodeOpus(pcm);
  return { data: oggOpus(packets, pcm.length), seconds: Math.max(1, Math.round(pcm.length / RATE)) };
}

/** Mono, 48 kHz, 16-bit samples. */
async function decodeMp3(mp3: Buffer): Promise<Int16Array> {
  const { MPEGDecoder } = await import("mpg123-decoder");
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const { channelData, samplesDecoded, sampleRate } = decoder.decode(new Uint8Array(mp3));
    if (!samplesDecoded || !channelData.length) throw new Error("no audio in the MP3");
    if (samplesDecoded / sampleRate > MAX_SECONDS) throw new Error("voice note too long");
    const mono = new Float32Array(samplesDecoded);
    for (const channel of channelData) for (let i = 0; i < samplesDecoded; i++) mono[i] += channel[i] / channelData.length;
    return pcmToInt16(resamplePcm(mono, sampleRate, RATE));
  } finally {
    decoder.free();
  }
}

async function encodeOpus(pcm: Int16Array): Promise<Buffer[]> {
  const { default: OpusScript } = await import("opusscript");
  const encoder = new OpusScript(RATE, 1, OpusScript.Application.VOIP);
  try {
    encoder.setBitrate(BITRATE);
    const packets: Buffer[] = [];
    // the encoder's delay is flushed with one frame of silence past the end
    const frames = Math.ceil((pcm.length + PRE_SKIP) / FRAME);
    const padded = new Int16Array(frames * FRAME);
    padded.set(pcm);
    for (let f = 0; f < frames; f++) {
      const frame = padded.subarray(f * FRAME, (f + 1) * FRAME);
      packets.push(Buffer.from(encoder.encode(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength), FRAME)));
    }
    return packets;
  } finally {
    encoder.delete();
  }
}

// ─── Ogg (RFC 3533) carrying Opus (RFC 7845) ───────────────────────────────

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

function crc32(data: Buffer): number {
  let crc = 0;
  for (const byte of data) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]) >>> 0;
  return crc >>> 0;
}

type Page = { packets: Buffer[]; granule: bigint; flags: number };

function page(p: Page, serial: number, sequence: number): Buffer {
  const lacing: number[] = [];
  for (const packet of p.packets) {
    let left = packet.length;
    while (left >= 255) {
      lacing.push(255);
      left -= 255;
    }
    lacing.push(left);
  }
  const header = Buffer.alloc(27 + lacing.length);
  header.write("OggS", 0, "ascii");
  header.writeUInt8(0, 4);
  header.writeUInt8(p.flags, 5);
  header.writeBigInt64LE(p.granule, 6);
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  header.writeUInt8(lacing.length, 26);
  Buffer.from(lacing).copy(header, 27);
  const whole = Buffer.concat([header, ...p.packets]);
  whole.writeUInt32LE(crc32(whole), 22);
  return whole;
}

function oggOpus(packets: Buffer[], samples: number): Buffer {
  const serial = (Math.random() * 0xffffffff) >>> 0;
  const head = Buffer.alloc(19);
  head.write("OpusHead", 0, "ascii");
  head.writeUInt8(1, 8); // version
  head.writeUInt8(1, 9); // channels
  head.writeUInt16LE(PRE_SKIP, 10);
  head.writeUInt32LE(RATE, 12);
  head.writeInt16LE(0, 16); // gain
  head.writeUInt8(0, 18); // mapping family: mono/stereo
  const vendor = Buffer.from("charla", "utf8");
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write("OpusTags", 0, "ascii");
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  tags.writeUInt32LE(0, 12 + vendor.length);

  const pages: Page[] = [
    { packets: [head], granule: 0n, flags: 0x02 },
    { packets: [tags], granule: 0n, flags: 0 },
  ];
  // a page holds at most 255 lacing values; 50 packets (1 s) a page stays well under it at 32 kbps
  const PER_PAGE = 50;
  const total = BigInt(PRE_SKIP + samples);
  for (let i = 0; i < packets.length; i += PER_PAGE) {
    const chunk = packets.slice(i, i + PER_PAGE);
    const last = i + PER_PAGE >= packets.length;
    // the last page's granule ends the stream where the audio ends (players trim the padding)
    // a granule counts the samples decoded so far, pre-skip included (RFC 7845 §4)
    const granule = last ? total : BigInt((i + chunk.length) * FRAME);
    pages.push({ packets: chunk, granule: granule < total ? granule : total, flags: last ? 0x04 : 0 });
  }
  return Buffer.concat(pages.map((p, n) => page(p, serial, n)));
}
