import { Limits, type SearchMode, type SearchResult } from "@charla/contracts";
import PersonIcon from "@mui/icons-material/Person";
import SearchIcon from "@mui/icons-material/Search";
import ChatIcon from "@mui/icons-material/ChatOutlined";
import SmartToyIcon from "@mui/icons-material/SmartToyOutlined";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import InputAdornment from "@mui/material/InputAdornment";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import OutlinedInput from "@mui/material/OutlinedInput";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useGlobalSearch } from "../../api/search";
import { useDebouncedValue } from "../../hooks/use-debounced-value";
import { formatTimeOrDateTime } from "../../lib/company-time";
import { formatPhoneNumber } from "../../lib/phone";
import { MessageText } from "./chat/MessageText";

type Props = {
  /** Changes each time the field must take the focus (Ctrl+K, "/", the tab chosen). */
  focusSignal: number;
};

/** The search tab (core §2 Global search): contacts and messages of the company, keyboard first. */
export function GlobalSearch({ focusSignal }: Props) {
  const { t } = useTranslation("tickets");
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [mode, setMode] = useState<SearchMode>("simple");
  const [selected, setSelected] = useState(0);
  const q = useDebouncedValue(text.trim(), Limits.debounceMs);
  const search = useGlobalSearch(q, mode);
  const ready = text.trim().length >= Limits.searchMin && q.length >= Limits.searchMin;
  const results = ready && !search.isError ? (search.data?.results ?? []) : [];

  useEffect(() => {
    if (focusSignal) input.current?.focus();
  }, [focusSignal]);
  // a new search starts at its first result
  const searchKey = `${mode}\u0000${q}`;
  const [selectedFor, setSelectedFor] = useState(searchKey);
  if (selectedFor !== searchKey) {
    setSelectedFor(searchKey);
    setSelected(0);
  }
  useEffect(() => {
    document.querySelector(`[data-search-index="${selected}"]`)?.scrollIntoView({ block: "nearest" });
  }, [selected]);

  const open = (result: SearchResult | undefined) => {
    if (!result) return;
    if (!result.ticket) {
      navigate(`/contacts?search=${encodeURIComponent(result.contact.name)}`);
      return;
    }
    const at = result.message ? `?messageId=${result.message.id}` : "";
    navigate(`/tickets/${result.ticket.uuid}${at}`);
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    const last = results.length - 1;
    const moves: Record<string, () => number> = {
      ArrowDown: () => Math.min(last, selected + 1),
      ArrowUp: () => Math.max(0, selected - 1),
      Home: () => 0,
      End: () => Math.max(0, last),
    };
    if (moves[event.key] && results.length) {
      event.preventDefault();
      setSelected(moves[event.key]());
    } else if (event.key === "Enter") {
      event.preventDefault();
      open(results[selected]);
    } else if (event.key === "Escape") {
      setText("");
    }
  };

  let empty: string | null = null;
  if (text.trim().length < Limits.searchMin) empty = t("globalSearch.hint");
  else if (ready && search.isError) empty = t("globalSearch.failed");
  else if (ready && search.isSuccess && !search.isPlaceholderData && results.length === 0) empty = t("globalSearch.none");

  return (
    <Box sx={{ display: "flex", flexDirection: "column", flex: 1, minHeight: 0 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 0.75, px: 1.5, py: 1 }}>
        <OutlinedInput
          size="small"
          fullWidth
          autoFocus
          placeholder={t("globalSearch.placeholder")}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          inputRef={input}
          inputProps={{
            "data-testid": "global-search",
            "aria-label": t("globalSearch.label"),
            role: "combobox",
            "aria-expanded": results.length > 0,
            "aria-controls": "global-search-results",
            "aria-activedescendant": results.length ? `global-search-${selected}` : undefined,
          }}
          startAdornment={
            <InputAdornment position="start">
              {search.isFetching ? <CircularProgress size={16} /> : <SearchIcon fontSize="small" />}
            </InputAdornment>
          }
          sx={{ borderRadius: 5, bgcolor: "action.hover", "& fieldset": { borderColor: "transparent" } }}
        />
        <ToggleButtonGroup
          size="small"
          exclusive
          value={mode}
          onChange={(_, value: SearchMode | null) => value && setMode(value)}
          aria-label={t("globalSearch.mode")}
        >
          <ToggleButton value="simple" data-testid="global-search-simple" sx={{ textTransform: "none", px: 1.25 }}>
            {t("globalSearch.simple")}
          </ToggleButton>
          <ToggleButton value="advanced" data-testid="global-search-advanced" sx={{ textTransform: "none", px: 1.25 }}>
            {t("globalSearch.advanced")}
          </ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {empty ? (
        <Typography variant="body2" color="text.secondary" sx={{ p: 3, textAlign: "center" }} data-testid="global-search-empty">
          {empty}
        </Typography>
      ) : (
        <List id="global-search-results" role="listbox" dense sx={{ overflowY: "auto", flex: 1, py: 0 }}>
          {results.map((result, index) => (
            <ListItemButton
              key={`${result.type}-${result.message?.id ?? result.contact.id}`}
              id={`global-search-${index}`}
              role="option"
              aria-selected={index === selected}
              selected={index === selected}
              data-search-index={index}
              data-testid="global-search-result"
              onMouseEnter={() => setSelected(index)}
              onClick={() => open(result)}
              sx={{ alignItems: "flex-start", gap: 1.25, borderBottom: 1, borderColor: "divider" }}
            >
              {result.type === "contact" ? (
                <PersonIcon fontSize="small" color="action" sx={{ mt: 0.5 }} />
              ) : (
                <ChatIcon fontSize="small" color="action" sx={{ mt: 0.5 }} />
              )}
              <Box sx={{ minWidth: 0, flex: 1 }}>
                <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
                  {result.type === "contact" && named(result.contact) ? (
                    <Segments result={result} />
                  ) : (
                    contactName(result.contact)
                  )}
                  <Typography
                    component="span"
                    variant="caption"
                    color="text.secondary"
                    sx={{ ml: 1 }}
                    data-testid="global-search-meta"
                  >
                    {result.message
                      ? messageTime(result.message.createdAt)
                      : named(result.contact)
                        ? formatPhoneNumber(result.contact.number)
                        : ""}
                  </Typography>
                </Typography>
                {result.message && (
                  <Typography
                    variant="body2"
                    color="text.secondary"
                    sx={{ overflowWrap: "anywhere", whiteSpace: "pre-wrap" }}
                    data-testid="global-search-body"
                  >
                    <Author message={result.message} />
                    {/* the chat's renderer: *bold* and ~strike~ as they look there; no links inside the button */}
                    <MessageText
                      text={result.highlightedBody.map((segment) => segment.text).join("")}
                      highlight={result.highlightedBody.filter((segment) => segment.highlight).map((segment) => segment.text)}
                      links={false}
                    />
                  </Typography>
                )}
              </Box>
            </ListItemButton>
          ))}
        </List>
      )}
    </Box>
  );
}

/** Today's messages by their time, older ones with their date too (core §1 DD/MM/YYYY HH:mm). */
const messageTime = (iso: string): string => formatTimeOrDateTime(iso);

/** A contact saved without a name carries its number as the name. */
function named(contact: { name: string; number: string }): boolean {
  const name = contact.name.trim();
  return name !== "" && name !== contact.number;
}

/** A contact without a name goes by its number, written as numbers are everywhere else. */
function contactName(contact: { name: string; number: string }): string {
  return named(contact) ? contact.name.trim() : formatPhoneNumber(contact.number);
}

/** Who wrote a company-side message: the bot's are marked as the chat marks them, the staff's "Tú". */
function Author({ message }: { message: { fromMe: boolean; isAutomatic: boolean } }) {
  const { t } = useTranslation("tickets");
  if (message.isAutomatic) {
    return (
      <Box component="span" data-testid="global-search-automatic" sx={{ whiteSpace: "nowrap" }}>
        <SmartToyIcon sx={{ fontSize: 14, verticalAlign: "-2px", mr: 0.25 }} aria-hidden />
        {`${t("globalSearch.bot")}: `}
      </Box>
    );
  }
  return message.fromMe ? `${t("globalSearch.you")}: ` : null;
}

/** The highlighted text, as React text: never HTML from the server. */
function Segments({ result }: { result: SearchResult }) {
  return (
    <>
      {result.highlightedBody.map((segment, index) =>
        segment.highlight ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the segments never reorder
          <Box key={index} component="mark" sx={{ bgcolor: "warning.light", color: "inherit", borderRadius: 0.5, px: 0.25 }}>
            {segment.text}
          </Box>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the segments never reorder
          <span key={index}>{segment.text}</span>
        ),
      )}
    </>
  );
}
