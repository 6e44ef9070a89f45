import ChecklistIcon from "@mui/icons-material/Checklist";
import HelpIcon from "@mui/icons-material/HelpOutlineOutlined";
import ContactsIcon from "@mui/icons-material/ContactPhoneOutlined";
import DashboardIcon from "@mui/icons-material/DashboardOutlined";
import PeopleIcon from "@mui/icons-material/PeopleAltOutlined";
import QuickMessagesIcon from "@mui/icons-material/FlashOnOutlined";
import SchedulesIcon from "@mui/icons-material/EventOutlined";
import QueuesIcon from "@mui/icons-material/AccountTreeOutlined";
import TagsIcon from "@mui/icons-material/LocalOfferOutlined";
import KanbanIcon from "@mui/icons-material/ViewKanbanOutlined";
import ContactListsIcon from "@mui/icons-material/ListAltOutlined";
import CampaignsIcon from "@mui/icons-material/CampaignOutlined";
import CampaignSettingsIcon from "@mui/icons-material/SettingsSuggestOutlined";
import FileListsIcon from "@mui/icons-material/AttachFileOutlined";
import PromptsIcon from "@mui/icons-material/SmartToyOutlined";
import IntegrationsIcon from "@mui/icons-material/HubOutlined";
import SimulatorIcon from "@mui/icons-material/PhoneAndroidOutlined";
import SettingsIcon from "@mui/icons-material/SettingsOutlined";
import AnnouncementsIcon from "@mui/icons-material/NewspaperOutlined";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import ChatsIcon from "@mui/icons-material/ForumOutlined";
import FinanceiroIcon from "@mui/icons-material/ReceiptLongOutlined";
import MessagesApiIcon from "@mui/icons-material/ApiOutlined";
import type { ReactNode } from "react";
import { Navigate } from "react-router";
import type { Access } from "../auth/permissions";
import { lazyLoaded } from "../lib/lazy-loaded";
import { campaignsShown } from "../lib/storage";
import { ConnectionsMenuIcon } from "../pages/connections/ConnectionsMenuIcon";
import { innerPages, pages } from "./pages";

const HomePage = lazyLoaded(pages.home);
const ContactsPage = lazyLoaded(pages.contacts);
const QuickMessagesPage = lazyLoaded(pages["quick-messages"]);
const SchedulesPage = lazyLoaded(pages.schedules);
const KanbanPage = lazyLoaded(pages.kanban);
const ConnectionsPage = lazyLoaded(pages.connections);
const QueuesPage = lazyLoaded(pages.queues);
const TagsPage = lazyLoaded(pages.tags);
const UsersPage = lazyLoaded(pages.users);
const SettingsPage = lazyLoaded(pages.settings);
const TodoListPage = lazyLoaded(pages.todolist);
const HelpsPage = lazyLoaded(pages.helps);
const SimulatorPage = lazyLoaded(pages.simulator);
const TicketsPage = lazyLoaded(pages.tickets);
const ContactListsPage = lazyLoaded(pages["contact-lists"]);
const ContactListItemsPage = lazyLoaded(innerPages.contactListItems);
const CampaignsPage = lazyLoaded(pages.campaigns);
const CampaignSettingsPage = lazyLoaded(pages["campaigns-config"]);
const CampaignReportPage = lazyLoaded(pages.campaign);
const FileListsPage = lazyLoaded(pages.files);
const PromptsPage = lazyLoaded(pages.prompts);
const QueueIntegrationPage = lazyLoaded(pages["queue-integration"]);
const ChatsPage = lazyLoaded(pages.chats);
const AnnouncementsPage = lazyLoaded(pages.announcements);
const FinanceiroPage = lazyLoaded(pages.financeiro);
const MessagesApiPage = lazyLoaded(pages["messages-api"]);

export type MenuEntry = {
  /** Also the test id: `menu-<key>`. */
  key: string;
  /** Key in the `layout` namespace. */
  labelKey: string;
  icon: ReactNode;
  /** Narrows the route's access for the menu only. */
  access?: Access;
};

export type AppRoute = {
  path: string;
  element: ReactNode;
  access?: Access;
  /** Where a user without `access` goes instead, quietly; without one they are told and sent to `/`. */
  fallback?: string;
  menu?: MenuEntry;
  /** The route (and its menu entry) exists only while this holds; read at each render. */
  registered?: () => boolean;
};

/**
 * secondary §2: the campaign areas' routes exist only while the browser holds the cshow flag. Their
 * access rule (campaigns.use) carries the plan flag useCampaigns, so the menu shows them by plan too.
 */
function campaignRoutes(routes: AppRoute[]): AppRoute[] {
  return routes.map((route) => ({ ...route, registered: campaignsShown }));
}

/**
 * Private routes, in menu order. The router and the side menu both read this list (through
 * registeredRoutes); an area that is not built yet is simply absent.
 */
export const appRoutes: AppRoute[] = [
  {
    path: "/",
    element: <HomePage />,
    // core §2: the dashboard is for admin and subadmin; everyone else starts at the tickets
    access: { anyOf: ["dashboard:view"] },
    fallback: "/tickets",
    menu: { key: "home", labelKey: "menu.home", icon: <DashboardIcon /> },
  },
  {
    path: "/tickets",
    element: <TicketsPage />,
    access: { anyOf: ["tickets.use"] },
    menu: { key: "tickets", labelKey: "menu.tickets", icon: <WhatsAppIcon /> },
  },
  // The same page element: moving between the list and a ticket keeps the list's state and scroll.
  {
    path: "/tickets/:ticketId",
    element: <TicketsPage />,
    access: { anyOf: ["tickets.use"] },
  },
  {
    path: "/quick-messages",
    element: <QuickMessagesPage />,
    // core §6: quick replies are a service item of every profile
    access: { anyOf: ["quick-messages.use"] },
    menu: { key: "quick-messages", labelKey: "menu.quickMessages", icon: <QuickMessagesIcon /> },
  },
  {
    path: "/schedules",
    element: <SchedulesPage />,
    // secondary §6: every profile, when the plan has useSchedules (the rule carries the flag)
    access: { anyOf: ["schedules.use"] },
    menu: { key: "schedules", labelKey: "menu.schedules", icon: <SchedulesIcon /> },
  },
  {
    path: "/kanban",
    element: <KanbanPage />,
    // secondary §6: every profile, when the plan has useKanban (the rule carries the flag)
    access: { anyOf: ["kanban.use"] },
    menu: { key: "kanban", labelKey: "menu.kanban", icon: <KanbanIcon /> },
  },
  {
    path: "/chats",
    element: <ChatsPage />,
    // secondary §6: every profile, when the plan has useInternalChat (the rule carries the flag)
    access: { anyOf: ["internal-chat.use"] },
    menu: { key: "chats", labelKey: "notifications.internalChat", icon: <ChatsIcon /> },
  },
  {
    path: "/chats/:id",
    element: <ChatsPage />,
    access: { anyOf: ["internal-chat.use"] },
  },
  {
    path: "/contacts",
    element: <ContactsPage />,
    access: { anyOf: ["contacts.use"] },
    menu: { key: "contacts", labelKey: "menu.contacts", icon: <ContactsIcon /> },
  },
  ...campaignRoutes([
    {
      path: "/contact-lists",
      element: <ContactListsPage />,
      access: { anyOf: ["campaigns.use"] },
      menu: { key: "contact-lists", labelKey: "menu.contactLists", icon: <ContactListsIcon /> },
    },
    {
      path: "/contact-lists/:contactListId/contacts",
      element: <ContactListItemsPage />,
      access: { anyOf: ["campaigns.use"] },
    },
    {
      path: "/campaigns",
      element: <CampaignsPage />,
      access: { anyOf: ["campaigns.use"] },
      menu: { key: "campaigns", labelKey: "menu.campaigns", icon: <CampaignsIcon /> },
    },
    {
      path: "/campaigns-config",
      element: <CampaignSettingsPage />,
      access: { anyOf: ["campaigns.use"] },
      menu: { key: "campaigns-config", labelKey: "menu.campaignsConfig", icon: <CampaignSettingsIcon /> },
    },
    {
      // the name the settings go by in the API (GET/POST /campaign-settings), kept as an alias
      path: "/campaign-settings",
      element: <Navigate to="/campaigns-config" replace />,
      access: { anyOf: ["campaigns.use"] },
    },
    {
      path: "/campaign/:campaignId/report",
      element: <CampaignReportPage />,
      access: { anyOf: ["campaigns.use"] },
    },
  ]),
  {
    path: "/tags",
    element: <TagsPage />,
    // core §2 routes: tags are for every profile
    access: { anyOf: ["tags.use"] },
    menu: { key: "tags", labelKey: "menu.tags", icon: <TagsIcon /> },
  },
  {
    path: "/files",
    element: <FileListsPage />,
    // core §6: an administration item (files), used by campaigns
    access: { anyOf: ["files.manage"] },
    menu: { key: "files", labelKey: "menu.files", icon: <FileListsIcon /> },
  },
  {
    path: "/prompts",
    element: <PromptsPage />,
    // secondary §6: admins whose plan has useOpenAi (the rule carries the flag); anyone else is told
    // and sent to / (secondary §8)
    access: { anyOf: ["prompts.manage"] },
    menu: { key: "prompts", labelKey: "menu.prompts", icon: <PromptsIcon /> },
  },
  {
    path: "/queue-integration",
    element: <QueueIntegrationPage />,
    // secondary §6: admins whose plan has useIntegrations (the rule carries the flag); anyone else is
    // told and sent to / (secondary §8)
    access: { anyOf: ["integrations.manage"] },
    menu: { key: "queue-integration", labelKey: "menu.queueIntegration", icon: <IntegrationsIcon /> },
  },
  {
    path: "/connections",
    element: <ConnectionsPage />,
    // core §6: an administration item (subadmin, admin); the icon carries the warning badge (core §2, §9)
    access: { anyOf: ["connections-page:addConnection"] },
    menu: { key: "connections", labelKey: "menu.connections", icon: <ConnectionsMenuIcon /> },
  },
  {
    path: "/queues",
    element: <QueuesPage />,
    // core §2 routes: areas are for admin and subadmin
    access: { anyOf: ["queues.manage"] },
    menu: { key: "queues", labelKey: "menu.queues", icon: <QueuesIcon /> },
  },
  {
    path: "/users",
    element: <UsersPage />,
    access: { anyOf: ["users.manage"] },
    menu: { key: "users", labelKey: "menu.users", icon: <PeopleIcon /> },
  },
  {
    path: "/messages-api",
    element: <MessagesApiPage />,
    // core §2, secondary §6: admin and the plan's useExternalApi (the rule carries the flag); anyone
    // else is told (secondary §8) and sent to /
    access: { anyOf: ["external-api.view"] },
    menu: { key: "messages-api", labelKey: "menu.messagesApi", icon: <MessagesApiIcon /> },
  },
  {
    path: "/announcements",
    element: <AnnouncementsPage />,
    // secondary §6, §9: super users only; the page itself tells anyone else and sends them to / after
    // 1 s (the shell's refusal would redirect at once), so the route has no access rule, only the menu
    menu: {
      key: "announcements",
      labelKey: "menu.announcements",
      icon: <AnnouncementsIcon />,
      access: { anyOf: ["announcements.manage"] },
    },
  },
  {
    path: "/financeiro",
    element: <FinanceiroPage />,
    // secondary §6: super users have it in the menu; a company's admin may open it for their own
    // company's invoices (the API picks which: invoices.read), anyone else is told and sent to /
    access: { anyOf: ["invoices.read"] },
    menu: {
      key: "financeiro",
      labelKey: "menu.financeiro",
      icon: <FinanceiroIcon />,
      access: { anyOf: ["financeiro.view"] },
    },
  },
  {
    path: "/settings",
    element: <SettingsPage />,
    // "companies.manage" is the super flag: supers see their tabs even without the admin profile.
    access: { anyOf: ["settings.write", "companies.manage"] },
    menu: { key: "settings", labelKey: "menu.settings", icon: <SettingsIcon /> },
  },
  {
    path: "/todolist",
    element: <TodoListPage />,
    menu: { key: "todolist", labelKey: "menu.todolist", icon: <ChecklistIcon /> },
  },
  {
    path: "/helps",
    element: <HelpsPage />,
    // core §2: help videos are for every profile
    access: { anyOf: ["helps.view"] },
    menu: { key: "helps", labelKey: "menu.helps", icon: <HelpIcon /> },
  },
  {
    path: "/simulator",
    element: <SimulatorPage />,
    access: { anyOf: ["simulator.use"] },
    menu: { key: "simulator", labelKey: "menu.simulator", icon: <SimulatorIcon /> },
  },
];

/** The routes that exist now (the campaign areas only with their browser flag). */
export function registeredRoutes(): AppRoute[] {
  return appRoutes.filter((route) => route.registered?.() ?? true);
}
