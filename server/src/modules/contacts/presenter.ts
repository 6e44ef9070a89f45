import type { ContactView } from "@charla/contracts";
import type { contacts } from "../../db/schema/index.js";

export function presentContact(c: typeof contacts.$inferSelect, whatsapp: { id: number; name: string } | null): ContactView {
  return {
    id: c.id,
    name: c.name,
    number: c.number,
    email: c.email,
    profilePicUrl: c.profilePicUrl,
    isGroup: c.isGroup,
    extraInfo: c.extraInfo,
    whatsapp,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
