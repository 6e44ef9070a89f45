import { loader } from "../../../lib/loader";

/** The conversation column's chunk: /tickets/{uuid} preloads it at start-up (routes/pages.ts), without React. */
export const loadTicketChat = loader(() => import("./TicketChat"));
