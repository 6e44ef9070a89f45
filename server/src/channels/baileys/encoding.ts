import { BufferJSON, proto, type WAMessageKey } from "baileys";

/** A received message's address as stored (InboundMessage.channelKey): its chat and group author, as received. */
export function encodeKey(key: WAMessageKey): string | undefined {
  if (!key.remoteJid) return undefined;
  return JSON.stringify(
    key.participant ? { remoteJid: key.remoteJid, participant: key.participant } : { remoteJid: key.remoteJid },
  );
}

export function decodeKey(text: string): { remoteJid?: string; participant?: string } | null {
  try {
    const k = JSON.parse(text) as { remoteJid?: unknown; participant?: unknown };
    return {
      remoteJid: typeof k.remoteJid === "string" ? k.remoteJid : undefined,
      participant: typeof k.participant === "string" ? k.participant : undefined,
    };
  } catch {
    return null;
  }
}

/** A sent message's proto as stored text: JSON with Baileys' Buffer encoding (media keys, hashes, thumbnails). */
export function encodeContent(message: proto.IMessage): string {
  return JSON.stringify(message, BufferJSON.replacer);
}

/** The stored text back to a proto; undefined when it is not one (it never fails a retry request). */
export function decodeContent(text: string): proto.IMessage | undefined {
  try {
    return proto.Message.fromObject(JSON.parse(text, BufferJSON.reviver));
  } catch {
    return undefined;
  }
}
