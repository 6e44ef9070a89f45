import { Limits, type QueueRef } from "@charla/contracts";
import AddIcon from "@mui/icons-material/Add";
import ClearIcon from "@mui/icons-material/Close";
import FilterIcon from "@mui/icons-material/FilterList";
import InboxIcon from "@mui/icons-material/MoveToInbox";
import SearchIcon from "@mui/icons-material/Search";
import DoneIcon from "@mui/icons-material/TaskAlt";
import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Collapse from "@mui/material/Collapse";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import OutlinedInput from "@mui/material/OutlinedInput";
import Switch from "@mui/material/Switch";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Tooltip from "../../components/LightTooltip";
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useSearchParams } from "react-router";
import { toastError } from "../../api/errors";
import { useTagOptions } from "../../api/tags";
import { type TicketView, useAcceptTicket, useTicketByUuid, useTicketsList, useUserOptions } from "../../api/tickets";
import { useSessionUser } from "../../auth/context";
import { usePermission } from "../../auth/permissions";
import { useDebouncedValue } from "../../hooks/use-debounced-value";
import { useOpenedOnce } from "../../hooks/use-opened-once";
import {
  GlobalSearch,
  NewTicketModal,
  PeekDialog,
  preloadGlobalSearch,
  preloadNewTicketModal,
  preloadTicketsFilters,
  TicketsFilters,
} from "./dialogs";
import { listFilters, showsAll, sortIds } from "./list-filters";
import type { FilterOption } from "./TicketsFilters";
import { TicketsList } from "./TicketsList";
import { useStoredQueueIds, useStoredShowAll } from "./use-ticket-preferences";

export type ListTab = "open" | "closed" | "search";
export type OpenSubTab = "assigned" | "pending";

type Props = {
  selectedUuid: string | null;
  /** Shows a ticket in the chat (the page keeps the query string). */
  onOpenTicket: (uuid: string) => void;
};

/** The count next to a sub-tab: the first page's `count` of that list. */
function CountPill({ value, testId, tone }: { value: number; testId: string; tone: "primary" | "warning" }) {
  return (
    <Box
      component="span"
      data-testid={testId}
      sx={{
        minWidth: 22,
        height: 20,
        px: 0.75,
        borderRadius: 10,
        fontSize: 12,
        fontWeight: 700,
        lineHeight: "20px",
        textAlign: "center",
        bgcolor: value > 0 ? `${tone}.main` : "action.selected",
        color: value > 0 ? `${tone}.contrastText` : "text.secondary",
        transition: "background-color 200ms",
      }}
    >
      {value > 9999 ? "9999+" : value}
    </Box>
  );
}

/**
 * The list side of the tickets screen (core §2): tabs open (assigned / pending with counts), closed and
 * search, the text search kept in the URL (`search`), the filters, and the new-ticket button.
 */
export function TicketsManager({ selectedUuid, onOpenTicket }: Props) {
  const { t } = useTranslation("tickets");
  const user = useSessionUser();
  const showAllSwitch = usePermission("tickets-manager:showall");
  const canPeek = usePermission("tickets.peek");
  const isAdmin = user.profile === "admin";

  const [params, setParams] = useSearchParams();
  const urlSearch = params.get("search") ?? "";
  // The field keeps its own text (the router updates in a transition, which would move the caret);
  // the URL follows it, and a change of the URL from elsewhere (back button) comes back into it.
  // A move to another ticket or back to /tickets without the query (the chat's navigations) keeps it.
  const [search, setSearchText] = useState(urlSearch);
  const written = useRef(urlSearch);
  const { pathname } = useLocation();
  const lastPath = useRef(pathname);
  useEffect(() => {
    const moved = pathname !== lastPath.current;
    lastPath.current = pathname;
    if (urlSearch === written.current) return;
    if (moved && urlSearch === "") {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set("search", written.current);
          return next;
        },
        { replace: true },
      );
      return;
    }
    written.current = urlSearch;
    setSearchText(urlSearch);
  }, [urlSearch, pathname, setParams]);
  const searchParam = useDebouncedValue(search.trim(), Limits.debounceMs);
  const searchInput = useRef<HTMLInputElement>(null);

  const [tab, setTab] = useState<ListTab>("open");
  const [subTab, setSubTab] = useState<OpenSubTab>("assigned");
  const [storedQueueIds, setStoredQueueIds] = useStoredQueueIds();
  const [showAllChosen, setShowAllChosen] = useStoredShowAll();
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [userIds, setUserIds] = useState<number[]>([]);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [userQueues, setUserQueues] = useState<QueueRef[] | null>(null);
  const [acceptingId, setAcceptingId] = useState<number | null>(null);
  const [peeking, setPeeking] = useState<TicketView | null>(null);
  const [creating, setCreating] = useState(false);
  const peekShown = useOpenedOnce(peeking !== null);
  const creatingShown = useOpenedOnce(creating);

  const showAll = showsAll(user, showAllChosen);
  // A remembered queue that is no longer offered is dropped from the filter.
  const queueIds = useMemo(
    () => sortIds(userQueues ? storedQueueIds.filter((id) => userQueues.some((q) => q.id === id)) : storedQueueIds),
    [storedQueueIds, userQueues],
  );

  // the same function gives the filters a page load prefetches (prefetch.ts), so the keys match
  const filters = useMemo(
    () => listFilters({ searchParam, queueIds, tagIds, userIds, isAdmin, showAll, unreadOnly }),
    [searchParam, queueIds, tagIds, userIds, isAdmin, showAll, unreadOnly],
  );
  const base = filters.search;

  // Both open sub-tabs stay loaded: their counts show whichever one is on screen.
  const assignedList = useTicketsList(filters.assigned);
  const pendingList = useTicketsList(filters.pending);
  const offeredQueues = assignedList.data?.pages[0]?.userQueues ?? pendingList.data?.pages[0]?.userQueues;
  useEffect(() => {
    if (offeredQueues) setUserQueues(offeredQueues);
  }, [offeredQueues]);

  const tags = useTagOptions();
  const users = useUserOptions(isAdmin && filtersOpen);
  const queueOptions: FilterOption[] = userQueues ?? [];
  const tagOptions: FilterOption[] = tags.data ?? [];
  const userOptions: FilterOption[] | null = isAdmin ? (users.data ?? []) : null;
  const activeFilters = (queueIds.length ? 1 : 0) + (tagIds.length ? 1 : 0) + (userIds.length ? 1 : 0) + (unreadOnly ? 1 : 0);

  const setSearch = (value: string) => {
    setSearchText(value);
    written.current = value;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set("search", value);
        else next.delete("search");
        return next;
      },
      { replace: true },
    );
  };

  // the search tab is the global search (core §2): its field takes the focus whenever it is chosen
  const [searchFocus, setSearchFocus] = useState(0);
  const chooseTab = (value: ListTab) => {
    setTab(value);
    if (value === "search") setSearchFocus((n) => n + 1);
  };
  useGlobalSearchKeys(() => {
    setTab("search");
    setSearchFocus((n) => n + 1);
  });

  const accept = useAcceptTicket();
  const acceptTicket = useCallback(
    async (ticket: TicketView) => {
      setAcceptingId(ticket.id);
      try {
        const accepted = await accept.mutateAsync(ticket);
        setTab("open");
        setSubTab("assigned");
        onOpenTicket(accepted.uuid);
      } catch (error) {
        toastError(error);
      } finally {
        setAcceptingId(null);
      }
    },
    [accept, onOpenTicket],
  );
  const openTicket = useCallback((ticket: TicketView) => onOpenTicket(ticket.uuid), [onOpenTicket]);

  // The selected ticket turned open (reopened or accepted in the chat, or by someone else): the list
  // follows it to the open tab, where it is now and shown selected. Picking another tab stays put.
  const selected = useTicketByUuid(selectedUuid).data;
  const selectedState = selected && selected.uuid === selectedUuid ? `${selected.uuid}:${selected.status}` : null;
  const lastSelectedState = useRef<string | null>(null);
  useEffect(() => {
    const before = lastSelectedState.current;
    lastSelectedState.current = selectedState;
    if (!before || !selectedState || before === selectedState) return;
    const [uuidBefore] = before.split(":");
    const [uuidNow, statusNow] = selectedState.split(":");
    if (uuidBefore === uuidNow && statusNow === "open") {
      setTab("open");
      setSubTab("assigned");
    }
  }, [selectedState]);

  const active =
    tab === "open"
      ? subTab === "assigned"
        ? filters.assigned
        : filters.pending
      : tab === "closed"
        ? filters.closed
        : filters.search;
  const filtered = base.searchParam !== "" || activeFilters > 0;
  const emptyMessage = filtered
    ? t("empty.filtered")
    : tab === "open"
      ? subTab === "assigned"
        ? t(showAll ? "empty.assignedAll" : "empty.assigned")
        : t("empty.pending")
      : tab === "closed"
        ? t("empty.closed")
        : t("empty.search");

  const count = (list: typeof assignedList) => list.data?.pages[0]?.count ?? 0;

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0, bgcolor: "background.paper" }}>
      <Tabs
        value={tab}
        onChange={(_, value: ListTab) => chooseTab(value)}
        variant="fullWidth"
        sx={{
          minHeight: 48,
          borderBottom: 1,
          borderColor: "divider",
          "& .MuiTab-root": { minHeight: 48, py: 0, textTransform: "none", fontWeight: 600 },
        }}
      >
        <Tab
          value="open"
          icon={<InboxIcon fontSize="small" />}
          iconPosition="start"
          label={t("tabs.open")}
          data-testid="tickets-tab-open"
        />
        <Tab
          value="closed"
          icon={<DoneIcon fontSize="small" />}
          iconPosition="start"
          label={t("tabs.closed")}
          data-testid="tickets-tab-closed"
        />
        <Tab
          value="search"
          icon={<SearchIcon fontSize="small" />}
          iconPosition="start"
          label={t("tabs.search")}
          data-testid="tickets-tab-search"
          onPointerEnter={preloadGlobalSearch}
        />
      </Tabs>

      {tab === "search" && (
        <Suspense fallback={null}>
          <GlobalSearch focusSignal={searchFocus} />
        </Suspense>
      )}

      <Box sx={{ display: tab === "search" ? "none" : "flex", alignItems: "center", gap: 0.75, px: 1.5, py: 1 }}>
        <OutlinedInput
          size="small"
          fullWidth
          placeholder={t("search.placeholder")}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Escape" && search) setSearch("");
          }}
          inputRef={searchInput}
          inputProps={{ "data-testid": "tickets-search", "aria-label": t("search.label") }}
          startAdornment={
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          }
          endAdornment={
            search ? (
              <InputAdornment position="end">
                <IconButton size="small" edge="end" aria-label={t("search.clear")} onClick={() => setSearch("")}>
                  <ClearIcon fontSize="small" />
                </IconButton>
              </InputAdornment>
            ) : undefined
          }
          sx={{ borderRadius: 5, bgcolor: "action.hover", "& fieldset": { borderColor: "transparent" } }}
        />
        <Tooltip title={t("filters.toggle")}>
          <IconButton
            aria-label={t("filters.toggle")}
            aria-expanded={filtersOpen}
            onClick={() => setFiltersOpen((value) => !value)}
            onPointerEnter={preloadTicketsFilters}
            onFocus={preloadTicketsFilters}
            color={filtersOpen || activeFilters > 0 ? "primary" : "default"}
            data-testid="tickets-filters-toggle"
          >
            <Badge badgeContent={activeFilters} color="primary" overlap="circular">
              <FilterIcon />
            </Badge>
          </IconButton>
        </Tooltip>
        <Tooltip title={t("newTicket.title")}>
          <Button
            variant="contained"
            onClick={() => setCreating(true)}
            onPointerEnter={preloadNewTicketModal}
            onFocus={preloadNewTicketModal}
            data-testid="tickets-new"
            aria-label={t("newTicket.title")}
            startIcon={<AddIcon />}
            sx={{ flexShrink: 0, height: 38, borderRadius: 5, px: 1.75, textTransform: "none", fontWeight: 600 }}
          >
            {t("newTicket.button")}
          </Button>
        </Tooltip>
      </Box>

      <Collapse in={filtersOpen && tab !== "search"} unmountOnExit>
        <Suspense fallback={null}>
          <TicketsFilters
            queues={queueOptions}
            queueIds={queueIds}
            onQueueIds={setStoredQueueIds}
            tags={tagOptions}
            tagIds={tagIds}
            onTagIds={setTagIds}
            users={userOptions}
            userIds={userIds}
            onUserIds={setUserIds}
            unreadOnly={unreadOnly}
            onUnreadOnly={setUnreadOnly}
            onClear={
              activeFilters > 0
                ? () => {
                    setStoredQueueIds([]);
                    setTagIds([]);
                    setUserIds([]);
                    setUnreadOnly(false);
                  }
                : undefined
            }
          />
        </Suspense>
      </Collapse>

      {tab === "open" && (
        <Box sx={{ display: "flex", alignItems: "center", borderBottom: 1, borderTop: 1, borderColor: "divider" }}>
          <Tabs
            value={subTab}
            onChange={(_, value: OpenSubTab) => setSubTab(value)}
            sx={{
              flex: 1,
              minHeight: 42,
              "& .MuiTab-root": { minHeight: 42, py: 0, px: 1.5, textTransform: "none", minWidth: 0 },
            }}
          >
            <Tab
              value="assigned"
              data-testid="tickets-subtab-assigned"
              label={
                <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 0.75 }}>
                  {t("tabs.assigned")}
                  <CountPill value={count(assignedList)} testId="tickets-count-assigned" tone="primary" />
                </Box>
              }
            />
            <Tab
              value="pending"
              data-testid="tickets-subtab-pending"
              label={
                <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 0.75 }}>
                  {t("tabs.pending")}
                  <CountPill value={count(pendingList)} testId="tickets-count-pending" tone="warning" />
                </Box>
              }
            />
          </Tabs>
          {showAllSwitch && (
            <Tooltip title={t("showAll.hint")}>
              <FormControlLabel
                sx={{ mr: 1, ml: 0.5, flexShrink: 0 }}
                control={
                  <Switch
                    size="small"
                    checked={showAllChosen}
                    onChange={(event) => setShowAllChosen(event.target.checked)}
                    slotProps={{ input: { "data-testid": "tickets-showall" } as object }}
                  />
                }
                label={t("showAll.label")}
                slotProps={{ typography: { variant: "body2", sx: { color: "text.secondary" } } }}
              />
            </Tooltip>
          )}
        </Box>
      )}

      {tab !== "search" && (
        <TicketsList
          key={tab === "open" ? subTab : tab}
          filters={active}
          selectedUuid={selectedUuid}
          canPeek={canPeek}
          acceptingId={acceptingId}
          emptyMessage={emptyMessage}
          onOpen={openTicket}
          onAccept={acceptTicket}
          onPeek={setPeeking}
        />
      )}

      <Suspense fallback={null}>
        {/* admins peek at any row; an agent at the chatbot's conversations they may only read (issue 26) */}
        {peekShown && <PeekDialog ticket={peeking} onClose={() => setPeeking(null)} />}
        {creatingShown && (
          <NewTicketModal
            open={creating}
            onClose={() => setCreating(false)}
            onOpenTicket={(uuid, ticket) => {
              if (!ticket || ticket.status === "open") {
                setTab("open");
                setSubTab("assigned");
              }
              onOpenTicket(uuid);
            }}
          />
        )}
      </Suspense>
    </Box>
  );
}

/** Ctrl+K or "/" opens the search tab with its field focused (core §2), unless typed in another field. */
function useGlobalSearchKeys(onOpen: () => void) {
  const latest = useRef(onOpen);
  latest.current = onOpen;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const ctrlK = (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k";
      const slash = event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey;
      if (!ctrlK && !slash) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
