import type { SimulatorThreadItem } from "@charla/contracts";
import PhoneIcon from "@mui/icons-material/PhoneAndroidOutlined";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import { type ReactNode, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { CustomerBubble, OutboundBubble, SentBubble } from "./MessageBubble";
import type { SentItem } from "./simulator-storage";

/** The server's history (either side), and what this tab is still sending or failed to send. */
export type ThreadItem =
  | { kind: "local"; at: string; item: SentItem }
  | { kind: "server"; at: string; item: SimulatorThreadItem };

type Props = {
  /** The customer as shown on top (name, else number); null before a valid number is typed. */
  title: string | null;
  subtitle: string;
  connectionName: string;
  items: ThreadItem[];
  emptyText: string;
  composer: ReactNode;
};

/** The customer's phone: a header, the conversation (customer right, agents left) and the keyboard. */
export function PhoneThread({ title, subtitle, connectionName, items, emptyText, composer }: Props) {
  const { t } = useTranslation("simulator");
  const theme = useTheme();
  const dark = theme.palette.mode === "dark";
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  // Whether the reader is at the bottom: then content growing (an image loading) keeps them there.
  const atBottom = useRef(true);
  const last = items.at(-1);
  const lastKey = last ? `${last.kind}-${last.kind === "local" ? last.item.key : last.item.id}` : "";

  // A new message (either side) scrolls to the bottom, as a phone does.
  useEffect(() => {
    const el = scroller.current;
    if (!el || !lastKey) return;
    el.scrollTop = el.scrollHeight;
    atBottom.current = true;
  }, [lastKey]);

  useEffect(() => {
    const el = scroller.current;
    const inner = content.current;
    if (!el || !inner || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(inner);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    const el = scroller.current;
    if (el) atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
  };

  return (
    <Paper
      variant="outlined"
      sx={{
        display: "flex",
        flexDirection: "column",
        overflow: "hidden",
        borderRadius: 3,
        minHeight: 0,
        height: { xs: "70dvh", md: "100%" },
        minWidth: 0,
      }}
    >
      <Box
        sx={{
          px: 1.5,
          py: 1,
          display: "flex",
          alignItems: "center",
          gap: 1.5,
          bgcolor: dark ? "#202c33" : "#f0f2f5",
          borderBottom: 1,
          borderColor: "divider",
        }}
      >
        <Avatar sx={{ width: 40, height: 40 }}>{title ? title.slice(0, 1).toUpperCase() : <PhoneIcon />}</Avatar>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="subtitle2" noWrap data-testid="simulator-thread-title">
            {title ?? t("thread.noCustomer")}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="div">
            {subtitle}
          </Typography>
        </Box>
        {connectionName && (
          <Chip
            size="small"
            icon={<PhoneIcon />}
            label={connectionName}
            variant="outlined"
            sx={{ maxWidth: { xs: 120, sm: 200 }, flexShrink: 1 }}
          />
        )}
      </Box>
      <Box
        ref={scroller}
        onScroll={onScroll}
        data-testid="simulator-thread"
        role="log"
        aria-label={t("thread.label")}
        sx={{ flex: 1, minHeight: 0, overflowY: "auto", bgcolor: dark ? "#0b141a" : "#efeae2" }}
      >
        <Box
          ref={content}
          sx={{ minHeight: "100%", px: { xs: 1, sm: 2 }, py: 1.5, display: "flex", flexDirection: "column", gap: 0.75 }}
        >
          {items.length === 0 ? (
            <Box sx={{ flex: 1, display: "flex", alignItems: "center", justifyContent: "center" }}>
              <Typography
                variant="body2"
                sx={{
                  textAlign: "center",
                  px: 2,
                  py: 1,
                  borderRadius: 2,
                  maxWidth: 320,
                  bgcolor: dark ? "#182229" : "#ffeecd",
                  color: dark ? "#e9edef" : "#54656f",
                }}
              >
                {emptyText}
              </Typography>
            </Box>
          ) : (
            items.map((entry) => {
              if (entry.kind === "local") return <SentBubble key={`local-${entry.item.key}`} item={entry.item} />;
              return entry.item.side === "customer" ? (
                <CustomerBubble key={`m-${entry.item.id}`} item={entry.item} />
              ) : (
                <OutboundBubble key={`m-${entry.item.id}`} item={entry.item} />
              );
            })
          )}
        </Box>
      </Box>
      {composer}
    </Paper>
  );
}
