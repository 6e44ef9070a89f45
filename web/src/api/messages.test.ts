import { Ack, type MessageView } from "@charla/contracts";
import { describe, expect, it } from "vitest";
import { mergeMessage } from "./messages";

const message = (ack: number, over: Partial<MessageView> = {}): MessageView => ({
  id: 1,
  ticketId: 1,
  contactId: 1,
  body: "hola",
  fromMe: true,
  read: true,
  ack,
  ackError: null,
  mediaType: "chat",
  mediaUrl: null,
  mediaName: null,
  quotedMsg: null,
  isDeleted: false,
  isEdited: false,
  isAutomatic: false,
  participantName: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});

describe("a message's copies in the chat's cache", () => {
  it("never moves an ack down: a late delivered copy after read keeps read", () => {
    expect(mergeMessage(message(Ack.read), message(Ack.delivered)).ack).toBe(Ack.read);
  });

  it("takes a failure reported after the channel accepted the send, with its reason", () => {
    const merged = mergeMessage(message(Ack.server), message(Ack.failed, { ackError: "ERR_CLOUD_UNDELIVERABLE" }));
    expect(merged.ack).toBe(Ack.failed);
    expect(merged.ackError).toBe("ERR_CLOUD_UNDELIVERABLE");
  });

  it("keeps ticks already delivered over a late failure", () => {
    expect(mergeMessage(message(Ack.delivered), message(Ack.failed, { ackError: "ERR_CLOUD_UNDELIVERABLE" })).ack).toBe(
      Ack.delivered,
    );
  });

  it("a later success clears a failure", () => {
    expect(mergeMessage(message(Ack.failed), message(Ack.server)).ack).toBe(Ack.server);
  });
});
