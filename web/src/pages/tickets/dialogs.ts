import { lazyLoaded } from "../../lib/lazy-loaded";
import { loader } from "../../lib/loader";

/*
 * The tickets screen's dialogs and filters are their own chunks, fetched when first opened, or before
 * that when the pointer or the focus reaches what opens them (the preload functions): the list's
 * first rows do not wait for their code (forms, zod, selects).
 */
const loadTicketsFilters = loader(() => import("./TicketsFilters").then((module) => ({ default: module.TicketsFilters })));
const loadNewTicketModal = loader(() => import("./NewTicketModal").then((module) => ({ default: module.NewTicketModal })));
const loadGlobalSearch = loader(() => import("./GlobalSearch").then((module) => ({ default: module.GlobalSearch })));
const loadPeekDialog = loader(() => import("./PeekDialog").then((module) => ({ default: module.PeekDialog })));

export const TicketsFilters = lazyLoaded(loadTicketsFilters);
export const NewTicketModal = lazyLoaded(loadNewTicketModal);
export const PeekDialog = lazyLoaded(loadPeekDialog);
export const GlobalSearch = lazyLoaded(loadGlobalSearch);

export const preloadTicketsFilters = () => void loadTicketsFilters().catch(() => undefined);
export const preloadNewTicketModal = () => void loadNewTicketModal().catch(() => undefined);
export const preloadGlobalSearch = () => void loadGlobalSearch().catch(() => undefined);
export const preloadPeekDialog = () => void loadPeekDialog().catch(() => undefined);
