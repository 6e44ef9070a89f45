/*
 * Audio samples as the composer records them and the server re-encodes them (voice notes): the same
 * conversions on both sides.
 */

/** Linear resampling (some devices record at 96 kHz; encoders take a few fixed rates). */
export function resamplePcm(samples: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return samples;
  const ratio = from / to;
  const out = new Float32Array(Math.floor(samples.length / ratio));
  for (let i = 0; i < out.length; i++) {
    const pos = i * ratio;
    const left = Math.floor(pos);
    const right = Math.min(left + 1, samples.length - 1);
    out[i] = samples[left] + (samples[right] - samples[left]) * (pos - left);
  }
  return out;
}

/** Float samples (−1…1, clipped) to 16-bit integers. */
export function pcmToInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]));
    out[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return out;
}
