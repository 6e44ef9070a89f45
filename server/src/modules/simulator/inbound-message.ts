import { normalizeNumber, type SimulatorInboundForm } from "@charla/contracts";
import type { z } from "zod";
import type { InboundMessage, MediaType } from "../../channels/driver.js";

type Input = z.output<typeof SimulatorInboundForm>;

function mediaTypeOf(mimetype: string): MediaType {
  const kind = mimetype.split("/")[0];
  return kind === "image" || kind === "audio" || kind === "video" ? kind : "application";
}

/** The simulator form as a driver event, shaped like what a real phone delivers. */
export function toInbound(input: Input): Omit<InboundMessage, "channelId" | "fromMe"> & { channelId?: string } {
  const base = { number: normalizeNumber(input.number), name: input.name, channelId: input.id, quotedChannelId: input.quotedId };
  if (input.location) {
    const { latitude, longitude, description } = input.location;
    // core §2: location bodies are "image|link|description"; the simulator has no map thumbnail
    const body = `|https://maps.google.com/maps?q=${latitude},${longitude}&z=17|${description ?? ""}`;
    return { ...base, body, mediaType: "locationMessage" };
  }
  if (input.vcard) {
    const digits = normalizeNumber(input.vcard.number);
    const name = input.vcard.name.replace(/[\r\n;]/g, " ");
    const body = [
      "BEGIN:VCARD",
      "VERSION:3.0",
      `N:;${name};;;`,
      `FN:${name}`,
      `TEL;type=CELL;waid=${digits}:+${digits}`,
      "END:VCARD",
    ].join("\n");
    return { ...base, body, mediaType: "vcard" };
  }
  if (input.mediaBase64) {
    const mimetype = input.mimetype || "application/octet-stream";
    const data = Buffer.from(input.mediaBase64, "base64");
    const fileName = input.fileName || "archivo";
    return {
      ...base,
      body: input.body,
      mediaType: input.mediaType ?? mediaTypeOf(mimetype),
      media: { data, mimetype, fileName },
    };
  }
  return { ...base, body: input.body, mediaType: input.mediaType ?? "chat" };
}
