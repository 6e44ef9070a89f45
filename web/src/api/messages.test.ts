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
    const merged = mergeMessage(
      message(Ack.server),
      message(Ack.failed, { ackError: "ERR_CLOUD_UNDELIVERABLE", updatedAt: "2026-01-01T00:00:03.000Z" }),
    );
    expect(merged.ack).toBe(Ack.failed);
    expect(merged.ackError).toBe("ERR_CLOUD_UNDELIVERABLE");
  });

  it("keeps ticks already delivered over a late failure", () => {
    expect(mergeMessage(message(Ack.delivered), message(Ack.failed, { ackError: "ERR_CLOUD_UNDELIVERABLE" })).ack).toBe(
      Ack.delivered,
    );
  });

  it("a send tried again clears a failure", () => {
    const failed = message(Ack.failed, { ackError: "ERR_CLOUD_RATE_LIMITED", updatedAt: "2026-01-01T00:00:01.000Z" });
    const retried = mergeMessage(failed, message(Ack.server, { updatedAt: "2026-01-01T00:00:05.000Z" }));
    expect(retried.ack).toBe(Ack.server);
    expect(retried.ackError).toBeNull();
  });

  it("a stale copy, the send's answer overtaken by its failure, leaves the failure", () => {
    const failed = message(Ack.failed, { ackError: "ERR_CLOUD_UNDELIVERABLE", updatedAt: "2026-01-01T00:00:02.000Z" });
    const merged = mergeMessage(failed, message(Ack.server, { updatedAt: "2026-01-01T00:00:01.000Z" }));
    expect(merged.ack).toBe(Ack.failed);
    expect(merged.ackError).toBe("ERR_CLOUD_UNDELIVERABLE");
  });

  it("a stale failure after the send went through again changes nothing", () => {
    const sent = message(Ack.server, { updatedAt: "2026-01-01T00:00:05.000Z" });
    const merged = mergeMessage(
      sent,
      message(Ack.failed, { ackError: "ERR_CLOUD_RATE_LIMITED", updatedAt: "2026-01-01T00:00:01.000Z" }),
    );
    expect(merged.ack).toBe(Ack.server);
    expect(merged.ackError).toBeNull();
  });
});
