import { locationBody, normalizeNumber, type SimulatorInboundForm, vcardBody } from "@charla/contracts";
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
  // core §2 formats; the simulator has no map thumbnail
  if (input.location) return { ...base, body: locationBody(input.location), mediaType: "locationMessage" };
  if (input.vcard) return { ...base, body: vcardBody(input.vcard), mediaType: "vcard" };
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
