import { preloadAppTexts } from "../i18n/texts";
import { loader } from "../lib/loader";
import { loadTicketChat } from "../pages/tickets/chat/load";

/*
 * Each page's chunk, by the first segment of its path. Kept apart from the registry (menus, icons,
 * access rules), which travels with the signed-in shell: the login page needs only these loaders.
 */
export const pages = {
  home: loader(() => import("../pages/home/HomePage")),
  contacts: loader(() => import("../pages/contacts/ContactsPage")),
  "quick-messages": loader(() => import("../pages/quick-messages/QuickMessagesPage")),
  schedules: loader(() => import("../pages/schedules/SchedulesPage")),
  kanban: loader(() => import("../pages/kanban/KanbanPage")),
  connections: loader(() => import("../pages/connections/ConnectionsPage")),
  queues: loader(() => import("../pages/queues/QueuesPage")),
  tags: loader(() => import("../pages/tags/TagsPage")),
  users: loader(() => import("../pages/users/UsersPage")),
  settings: loader(() => import("../pages/settings/SettingsPage")),
  todolist: loader(() => import("../pages/todolist/TodoListPage")),
  helps: loader(() => import("../pages/helps/HelpsPage")),
  simulator: loader(() => import("../pages/simulator/SimulatorPage")),
  tickets: loader(() => import("../pages/tickets/TicketsPage")),
  "contact-lists": loader(() => import("../pages/contact-lists/ContactListsPage")),
  campaigns: loader(() => import("../pages/campaigns/CampaignsPage")),
  "campaigns-config": loader(() => import("../pages/campaigns/CampaignSettingsPage")),
  // /campaign/{campaignId}/report: the report is the only page under this segment
  campaign: loader(() => import("../pages/campaigns/CampaignReportPage")),
  files: loader(() => import("../pages/file-lists/FileListsPage")),
  prompts: loader(() => import("../pages/prompts/PromptsPage")),
  "queue-integration": loader(() => import("../pages/queue-integration/QueueIntegrationPage")),
  chats: loader(() => import("../pages/chats/ChatsPage")),
  announcements: loader(() => import("../pages/announcements/AnnouncementsPage")),
  financeiro: loader(() => import("../pages/financeiro/FinanceiroPage")),
  "messages-api": loader(() => import("../pages/messages-api/MessagesApiPage")),
};

/** Pages at a deeper path of another page's segment: /contact-lists/{id}/contacts. */
export const innerPages = {
  contactListItems: loader(() => import("../pages/contact-lists/ContactListItemsPage")),
};

/**
 * What a page's deeper paths show at once besides the page: /tickets/{uuid} opens a conversation,
 * /contact-lists/{id}/contacts a list's numbers.
 */
const details: Partial<Record<keyof typeof pages, () => Promise<unknown>>> = {
  tickets: loadTicketChat,
  "contact-lists": innerPages.contactListItems,
};

/** Starts loading the page of `pathname` (its first segment); the lazy route then finds it loaded. */
export function preloadPage(pathname: string): void {
  const [, first, second] = pathname.split("/");
  const segment = (first || "home") as keyof typeof pages;
  const loads = [pages[segment], second ? details[segment] : undefined];
  for (const load of loads) if (load) void load().catch(() => undefined);
}

/** The login page's chunk: main.tsx fetches it at once when there is no session to resume. */
export const loadLoginPage = loader(() => import("../pages/login/LoginPage"));

/** The public sign-up page (core §2), beside the login page and, like it, without the shell. */
export const loadSignupPage = loader(() => import("../pages/signup/SignupPage"));

/** The logged-in shell (menus, live socket, inbox events, the private routes): the login page never loads it. */
export const loadShell = loader(() => import("./SignedInRoutes"));

/**
 * With a stored session (a reload) or a new one (a login): the shell's and the page's code and the
 * signed-in areas' texts start loading at once, while the token is refreshed, not one after the other.
 * main.tsx calls it before the rest of the app's code has arrived.
 */
export function preloadSignedIn(pathname: string): void {
  void loadShell().catch(() => undefined);
  preloadPage(pathname);
  preloadAppTexts();
}

/** core §2: after login the user lands on /tickets once that area exists. */
export const loginDestination: string = "tickets" in pages ? "/tickets" : "/";
