import ChecklistIcon from "@mui/icons-material/Checklist";
import ContactsIcon from "@mui/icons-material/ContactPhoneOutlined";
import DashboardIcon from "@mui/icons-material/DashboardOutlined";
import PeopleIcon from "@mui/icons-material/PeopleAltOutlined";
import SimulatorIcon from "@mui/icons-material/PhoneAndroidOutlined";
import SettingsIcon from "@mui/icons-material/SettingsOutlined";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import { lazy, type ReactNode } from "react";
import type { Access } from "../auth/permissions";
import { ConnectionsMenuIcon } from "../pages/connections/ConnectionsMenuIcon";

// each page's chunk, by route; `preloadPage` starts the one a reload lands on before the session is back
const pages = {
  home: () => import("../pages/home/HomePage"),
  contacts: () => import("../pages/contacts/ContactsPage"),
  connections: () => import("../pages/connections/ConnectionsPage"),
  users: () => import("../pages/users/UsersPage"),
  settings: () => import("../pages/settings/SettingsPage"),
  todolist: () => import("../pages/todolist/TodoListPage"),
  simulator: () => import("../pages/simulator/SimulatorPage"),
  tickets: () => import("../pages/tickets/TicketsPage"),
};
const HomePage = lazy(pages.home);
const ContactsPage = lazy(pages.contacts);
const ConnectionsPage = lazy(pages.connections);
const UsersPage = lazy(pages.users);
const SettingsPage = lazy(pages.settings);
const TodoListPage = lazy(pages.todolist);
const SimulatorPage = lazy(pages.simulator);
const TicketsPage = lazy(pages.tickets);

/** Starts loading the page of `pathname` (its first segment); the lazy route then finds it loaded. */
export function preloadPage(pathname: string): void {
  const segment = pathname.split("/")[1] || "home";
  const load = pages[segment as keyof typeof pages];
  if (load) void load().catch(() => undefined);
}

export type MenuEntry = {
  /** Also the test id: `menu-<key>`. */
  key: string;
  /** Key in the `layout` namespace. */
  labelKey: string;
  icon: ReactNode;
  /** Overrides the route's access for the menu only (the home page is open, its menu item is not). */
  access?: Access;
};

export type AppRoute = {
  path: string;
  element: ReactNode;
  access?: Access;
  menu?: MenuEntry;
};

/**
 * Private routes, in menu order. The router and the side menu both read this list; an area that is
 * not built yet is simply absent.
 */
export const appRoutes: AppRoute[] = [
  {
    path: "/",
    element: <HomePage />,
    menu: { key: "home", labelKey: "menu.home", icon: <DashboardIcon />, access: { anyOf: ["dashboard:view"] } },
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
    path: "/contacts",
    element: <ContactsPage />,
    access: { anyOf: ["contacts.use"] },
    menu: { key: "contacts", labelKey: "menu.contacts", icon: <ContactsIcon /> },
  },
  {
    path: "/connections",
    element: <ConnectionsPage />,
    // core §6: an administration item (subadmin, admin); the icon carries the warning badge (core §2, §9)
    access: { anyOf: ["connections-page:addConnection"] },
    menu: { key: "connections", labelKey: "menu.connections", icon: <ConnectionsMenuIcon /> },
  },
  {
    path: "/users",
    element: <UsersPage />,
    access: { anyOf: ["users.manage"] },
    menu: { key: "users", labelKey: "menu.users", icon: <PeopleIcon /> },
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
    path: "/simulator",
    element: <SimulatorPage />,
    access: { anyOf: ["simulator.use"] },
    menu: { key: "simulator", labelKey: "menu.simulator", icon: <SimulatorIcon /> },
  },
];

/** core §2: after login the user lands on /tickets once that area exists. */
export const loginDestination = appRoutes.some((route) => route.path === "/tickets") ? "/tickets" : "/";
