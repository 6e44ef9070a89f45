/**
 * The declared type of an uploaded attachment, kept only when the file's first bytes agree with it for
 * the kinds WhatsApp shows inline (image, video, audio); otherwise the file goes as a document
 * (application/octet-stream). A file that says it is an image and is not would reach the contact as a
 * broken picture; as a document it arrives as what it is.
 */
export function checkedMimetype(head: Buffer, declared: string): string {
  const family = declared.split("/")[0]?.toLowerCase();
  const signatures = family ? FAMILIES[family] : undefined;
  if (!signatures) return declared;
  return signatures.some((matches) => matches(head)) ? declared : "application/octet-stream";
}

type Signature = (head: Buffer) => boolean;

const startsWith =
  (...bytes: number[]): Signature =>
  (head) =>
    head.length >= bytes.length && bytes.every((b, i) => head[i] === b);
const ascii =
  (text: string, at = 0): Signature =>
  (head) =>
    head.length >= at + text.length && head.toString("latin1", at, at + text.length) === text;
const riff =
  (kind: string): Signature =>
  (head) =>
    ascii("RIFF")(head) && ascii(kind, 8)(head);
// ISO base media (mp4, mov, 3gp, m4a, heic): a box named ftyp at byte 4
const isoMedia = ascii("ftyp", 4);
const matroska = startsWith(0x1a, 0x45, 0xdf, 0xa3);
// an MPEG audio frame (mp3) or ADTS (aac): eleven sync bits
const mpegFrame: Signature = (head) => head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0;

const FAMILIES: Record<string, Signature[]> = {
  image: [
    startsWith(0x89, 0x50, 0x4e, 0x47),
    startsWith(0xff, 0xd8, 0xff),
    ascii("GIF8"),
    riff("WEBP"),
    ascii("BM"),
    startsWith(0x49, 0x49, 0x2a, 0x00),
    startsWith(0x4d, 0x4d, 0x00, 0x2a),
    isoMedia,
  ],
  video: [isoMedia, matroska, riff("AVI "), startsWith(0x00, 0x00, 0x01, 0xba), startsWith(0x00, 0x00, 0x01, 0xb3)],
  audio: [ascii("OggS"), ascii("ID3"), mpegFrame, riff("WAVE"), isoMedia, ascii("#!AMR"), ascii("fLaC"), matroska],
};
