import { pcmToInt16, resamplePcm } from "@charla/contracts";
/** core §9: voice notes go out as MP3 at 128 kbps. */
const KBPS = 128;
const BLOCK = 1152;
const LAME_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];

export type Recording = {
  /** Stops the microphone and encodes what was captured. */
  stop: () => Promise<Blob>;
  /** Stops the microphone and drops what was captured. */
  cancel: () => void;
};

function concat(chunks: Float32Array[]): Float32Array {
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const out = new Float32Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** PCM (mono, float) → MP3. Runs in slices so a long note does not freeze the screen in one go. */
export async function encodeMp3(chunks: Float32Array[], sampleRate: number): Promise<Blob> {
  const rate = LAME_RATES.includes(sampleRate) ? sampleRate : 44100;
  const pcm = pcmToInt16(resamplePcm(concat(chunks), sampleRate, rate));
  // The encoder is loaded with the first voice note, not with the tickets screen.
  const { Mp3Encoder } = await import("@breezystack/lamejs");
  const encoder = new Mp3Encoder(1, rate, KBPS);
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const keep = (data: Uint8Array) => {
    if (data.length > 0) parts.push(new Uint8Array(data));
  };
  for (let i = 0; i < pcm.length; i += BLOCK) {
    keep(encoder.encodeBuffer(pcm.subarray(i, i + BLOCK)));
    // yield every ~5 s of audio
    if (i % (BLOCK * 200) === 0) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  keep(encoder.flush());
  return new Blob(parts, { type: "audio/mpeg" });
}

type LegacyWindow = Window & { webkitAudioContext?: typeof AudioContext };

/**
 * Captures the microphone as PCM through Web Audio (a ScriptProcessor: available in every browser
 * that records, with no worklet file to serve) and encodes it when stopped.
 */
export async function startRecording(): Promise<Recording> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
  const Context = window.AudioContext ?? (window as LegacyWindow).webkitAudioContext;
  const context = new Context();
  const source = context.createMediaStreamSource(stream);
  const processor = context.createScriptProcessor(4096, 1, 1);
  const chunks: Float32Array[] = [];
  processor.onaudioprocess = (event) => {
    chunks.push(new Float32Array(event.inputBuffer.getChannelData(0)));
  };
  source.connect(processor);
  // A ScriptProcessor only runs while connected to the output; it writes silence there.
  processor.connect(context.destination);

  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    processor.onaudioprocess = null;
    source.disconnect();
    processor.disconnect();
    for (const track of stream.getTracks()) track.stop();
    void context.close().catch(() => undefined);
  };

  return {
    stop: async () => {
      const rate = context.sampleRate;
      close();
      return encodeMp3(chunks, rate);
    },
    cancel: close,
  };
}
