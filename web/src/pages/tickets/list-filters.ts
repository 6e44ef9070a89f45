import { can, type SessionUser } from "@charla/contracts";
import { type TicketListFilters, viewerOf } from "../../api/ticket-lists";
import { subjectOf } from "../../auth/subject";
import { readStoredQueueIds, readStoredShowAll } from "./ticket-preferences";

export const sortIds = (ids: number[]) => [...ids].sort((a, b) => a - b);

export type ListChoices = {
  searchParam: string;
  queueIds: number[];
  tagIds: number[];
  userIds: number[];
  isAdmin: boolean;
  showAll: boolean;
  unreadOnly: boolean;
};

/** Each tab's list filters (also their query keys) from what the user chose on the tickets screen. */
export function listFilters(choices: ListChoices) {
  const base = {
    searchParam: choices.searchParam,
    queueIds: sortIds(choices.queueIds),
    tags: sortIds(choices.tagIds),
    users: choices.isAdmin ? sortIds(choices.userIds) : [],
    showAll: choices.showAll,
    withUnreadMessages: choices.unreadOnly,
  };
  return {
    assigned: { ...base, status: "open" } satisfies TicketListFilters,
    pending: { ...base, status: "pending" } satisfies TicketListFilters,
    closed: { ...base, status: "closed" } satisfies TicketListFilters,
    search: base satisfies TicketListFilters,
  };
}

/** Whether the open tab shows everyone's tickets: staff without the switch (subadmin, supervisor) always do (core §6). */
export function showsAll(user: SessionUser, chosen: boolean): boolean {
  return can(subjectOf(user), "tickets-manager:showall") ? chosen : viewerOf(user).staff;
}

/** The filters the tickets screen opens with: the URL's search, the remembered queues and switch, nothing else. */
export function firstListFilters(user: SessionUser, search: string) {
  return listFilters({
    searchParam: search.trim(),
    queueIds: readStoredQueueIds(),
    tagIds: [],
    userIds: [],
    isAdmin: user.profile === "admin",
    showAll: showsAll(user, readStoredShowAll()),
    unreadOnly: false,
  });
}
