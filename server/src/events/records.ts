import type { SocketPayloads } from "@charla/contracts";
import type { Audience } from "./audience.js";

/**
 * The areas whose changes go out as their contracts' event (`create` / `update` with the presented
 * record, `delete` with its id), on the channel named like the area, to the audience the publisher chose.
 */
export type RecordArea =
  | "user"
  | "settings"
  | "contact"
  | "queue"
  | "quickMessage"
  | "schedule"
  | "contactList"
  | "campaign"
  | "file"
  | "queueIntegration"
  | "prompt"
  | "company"
  | "tag";

/** One area's change: `area` names it and `change` is typed by it. */
export type RecordChanges = { [A in RecordArea]: { area: A; change: SocketPayloads[A] } };

export type RecordEvents = {
  /** A record of a CRUD area created, changed or deleted (contacts: also `reload` after an import). */
  "record.changed": { companyId: number; audience: Audience } & RecordChanges[RecordArea];
  /** A contact list's number changed: heard company-wide and on its list's own channel. */
  "contact-list-item.changed": {
    companyId: number;
    listId: number;
    audience: Audience;
    change: SocketPayloads["contactListItem"];
  };
};
