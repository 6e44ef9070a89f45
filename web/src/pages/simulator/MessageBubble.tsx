import { type AckError, ackMark, type SimulatorThreadItem } from "@charla/contracts";
import BlockIcon from "@mui/icons-material/Block";
import DoneIcon from "@mui/icons-material/Done";
import DoneAllIcon from "@mui/icons-material/DoneAll";
import ErrorIcon from "@mui/icons-material/ErrorOutlined";
import FileIcon from "@mui/icons-material/InsertDriveFileOutlined";
import PlaceIcon from "@mui/icons-material/LocationOnOutlined";
import ContactIcon from "@mui/icons-material/PermContactCalendarOutlined";
import ScheduleIcon from "@mui/icons-material/Schedule";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Link from "@mui/material/Link";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useMediaUrl } from "../../api/simulator";
import { formatTimeOrDateTime } from "../../lib/company-time";
import { formatPhoneNumber } from "../../lib/phone";
import { MessageText } from "../tickets/chat/MessageText";
import { mapsLink } from "@charla/contracts";
import { parseLocation, parseVcard } from "../../components/share/share-bodies";
import type { SentItem } from "./simulator-storage";

/** WhatsApp's read-receipt blue. */
const READ_BLUE = "#53bdeb";

const textSx = { whiteSpace: "pre-wrap", overflowWrap: "anywhere" } as const;

/** Message text with WhatsApp's formatting (the chat's own renderer): React elements only, never markup. */
function Text({ children }: { children: string }) {
  if (!children) return null;
  return (
    <Typography variant="body2" component="div" sx={textSx}>
      <MessageText text={children} />
    </Typography>
  );
}

/** What is left of a message deleted for everyone. */
function Deleted() {
  const { t } = useTranslation("simulator");
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 0.75, fontStyle: "italic", opacity: 0.75, typography: "body2" }}>
      <BlockIcon sx={{ fontSize: 16 }} />
      {t("thread.deleted")}
    </Box>
  );
}

type Side = "in" | "out";

type BubbleProps = {
  side: Side;
  footer: ReactNode;
  children: ReactNode;
  /** Test id and data attributes of the bubble. */
  attrs: Record<`data-${string}`, string | number>;
};

/** One phone bubble: the customer's own (right, green) or what an agent sent (left). */
function Bubble({ side, footer, children, attrs }: BubbleProps) {
  const theme = useTheme();
  const dark = theme.palette.mode === "dark";
  const mine = side === "in";
  const background = mine ? (dark ? "#005c4b" : "#d9fdd3") : dark ? "#202c33" : "#ffffff";
  return (
    <Box sx={{ display: "flex", justifyContent: mine ? "flex-end" : "flex-start" }}>
      <Box
        {...attrs}
        sx={{
          maxWidth: { xs: "85%", sm: "75%" },
          minWidth: 72,
          px: 1.25,
          pt: 0.75,
          pb: 0.5,
          borderRadius: 2,
          borderTopRightRadius: mine ? 4 : undefined,
          borderTopLeftRadius: mine ? undefined : 4,
          bgcolor: background,
          color: dark ? "#e9edef" : "#111b21",
          boxShadow: "0 1px 0.5px rgba(11, 20, 26, 0.13)",
          display: "flex",
          flexDirection: "column",
          gap: 0.5,
        }}
      >
        {children}
        <Box sx={{ display: "flex", justifyContent: "flex-end", alignItems: "center", gap: 0.5, opacity: 0.7 }}>{footer}</Box>
      </Box>
    </Box>
  );
}

function Time({ iso }: { iso: string }) {
  return (
    <Typography variant="caption" sx={{ fontSize: 11, lineHeight: 1 }} data-testid="simulator-time">
      {formatTimeOrDateTime(iso)}
    </Typography>
  );
}

/**
 * core §2 on WhatsApp's scale (docs/acks.md): 1–2 one tick, 3 two grey ticks, 4–5 two blue ticks;
 * 0 still pending; -1 failed, an error mark whose tooltip says why.
 */
export function AckIcon({ ack, error }: { ack: number; error?: AckError | null }) {
  const { t } = useTranslation("simulator");
  const iconSx = { fontSize: 16 };
  const mark = ackMark(ack);
  if (mark === "failed") {
    const reason = error ? t(error, { ns: "errors" }) : "";
    const label = reason ? `${t("thread.ack.failed")}: ${reason}` : t("thread.ack.failed");
    return (
      <Tooltip title={label}>
        <ErrorIcon sx={{ ...iconSx, color: "error.main" }} aria-label={label} data-testid="simulator-ack-failed" />
      </Tooltip>
    );
  }
  if (mark === "read")
    return (
      <Tooltip title={t("thread.ack.read")}>
        <DoneAllIcon sx={{ ...iconSx, color: READ_BLUE }} aria-label={t("thread.ack.read")} data-testid="simulator-ack-read" />
      </Tooltip>
    );
  if (mark === "delivered")
    return (
      <Tooltip title={t("thread.ack.delivered")}>
        <DoneAllIcon sx={iconSx} aria-label={t("thread.ack.delivered")} data-testid="simulator-ack-delivered" />
      </Tooltip>
    );
  if (mark === "sent")
    return (
      <Tooltip title={t("thread.ack.sent")}>
        <DoneIcon sx={iconSx} aria-label={t("thread.ack.sent")} data-testid="simulator-ack-sent" />
      </Tooltip>
    );
  return (
    <Tooltip title={t("thread.ack.pending")}>
      <ScheduleIcon sx={iconSx} aria-label={t("thread.ack.pending")} />
    </Tooltip>
  );
}

function SentStatusIcon({ status }: { status: SentItem["status"] }) {
  const { t } = useTranslation("simulator");
  const iconSx = { fontSize: 16 };
  if (status === "sending") return <ScheduleIcon sx={iconSx} aria-label={t("thread.status.sending")} />;
  if (status === "sent")
    return (
      <Tooltip title={t("thread.status.sent")}>
        <DoneIcon sx={iconSx} aria-label={t("thread.status.sent")} />
      </Tooltip>
    );
  if (status === "failed")
    return (
      <Tooltip title={t("thread.status.failed")}>
        <ErrorIcon sx={{ ...iconSx, color: "error.main" }} aria-label={t("thread.status.failed")} />
      </Tooltip>
    );
  return null;
}

function FileLine({ name, children }: { name: string; children?: ReactNode }) {
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, minWidth: 0 }}>
      <FileIcon fontSize="small" />
      <Box sx={{ minWidth: 0, ...textSx, typography: "body2" }}>{children ?? name}</Box>
    </Box>
  );
}

function LocationCard({ description, link, coordinates }: { description: string; link: string | null; coordinates?: string }) {
  const { t } = useTranslation("simulator");
  return (
    <Box sx={{ display: "flex", gap: 1, alignItems: "flex-start" }}>
      <PlaceIcon fontSize="small" sx={{ mt: 0.25 }} />
      <Box sx={{ minWidth: 0 }}>
        <Text>{description || t("thread.location")}</Text>
        {coordinates && (
          <Typography variant="caption" component="div" sx={{ opacity: 0.8 }}>
            {coordinates}
          </Typography>
        )}
        {link && (
          <Link href={link} target="_blank" rel="noopener noreferrer" variant="body2">
            {t("thread.openMap")}
          </Link>
        )}
      </Box>
    </Box>
  );
}

function VcardCard({ name, number }: { name: string; number: string }) {
  return (
    <Box sx={{ display: "flex", gap: 1, alignItems: "center" }}>
      <ContactIcon fontSize="small" />
      <Box sx={{ minWidth: 0 }}>
        <Text>{name}</Text>
        <Typography variant="caption" component="div" sx={{ opacity: 0.8 }}>
          {formatPhoneNumber(number.replace(/^\+/, ""))}
        </Typography>
      </Box>
    </Box>
  );
}

const EXTENSIONS: Record<string, string> = {
  "application/pdf": "pdf",
  "application/zip": "zip",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "image/gif": "gif",
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "text/csv": "csv",
  "text/plain": "txt",
  "video/mp4": "mp4",
};

/**
 * The name a download is saved under: the message's `mediaName` when the API sends one, else its
 * text (agents' files carry their name there), else "File" with the extension of its type.
 */
function fileNameOf(item: SimulatorThreadItem, type: string, fallback: string): string {
  const given = item.mediaName?.trim() || item.body.trim();
  if (given) return given;
  const extension = EXTENSIONS[type.split(";")[0]];
  return extension ? `${fallback}.${extension}` : fallback;
}

/** An agent's media: images inline, anything else a download link under its name. */
function OutboundMedia({ item }: { item: SimulatorThreadItem & { mediaUrl: string } }) {
  const { t } = useTranslation("simulator");
  const media = useMediaUrl(item.mediaUrl);
  const name = fileNameOf(item, media.type, t("thread.file"));
  if (media.failed) return <FileLine name={t("thread.mediaFailed")} />;
  if (!media.url)
    return (
      <FileLine name={name}>
        {name} <CircularProgress size={12} color="inherit" sx={{ ml: 0.5, verticalAlign: "middle" }} />
      </FileLine>
    );
  if (item.mediaType === "image" || media.type.startsWith("image/")) {
    return (
      <Box
        component="img"
        src={media.url}
        alt={name}
        data-testid="simulator-out-image"
        sx={{ display: "block", maxWidth: "100%", maxHeight: 280, borderRadius: 1.5, objectFit: "contain" }}
      />
    );
  }
  return (
    <FileLine name={name}>
      <Link href={media.url} download={name} underline="hover" data-testid="simulator-out-file">
        {name}
      </Link>
    </FileLine>
  );
}

/** A message of the server's history, either side: media, location, contact card or text. */
function ThreadContent({ item }: { item: SimulatorThreadItem }) {
  if (item.isDeleted) return <Deleted />;
  if (item.mediaUrl) {
    const caption = item.body.trim();
    // media without a caption carry their file name as text; it is shown once, on the file
    const showCaption = caption !== "" && caption !== item.mediaName?.trim() && !/\.\w{2,5}$/.test(caption);
    return (
      <>
        <OutboundMedia item={{ ...item, mediaUrl: item.mediaUrl }} />
        {showCaption && <Text>{item.body}</Text>}
      </>
    );
  }
  if (item.mediaType === "locationMessage") {
    const location = parseLocation(item.body);
    return <LocationCard description={location.description} link={location.link} />;
  }
  if (item.mediaType === "vcard") {
    const card = parseVcard(item.body);
    return <VcardCard name={card.name} number={card.number} />;
  }
  return <Text>{item.body}</Text>;
}

/** What an agent sent (left), with its ticks. */
export function OutboundBubble({ item }: { item: SimulatorThreadItem }) {
  return (
    <Bubble
      side="out"
      attrs={{ "data-testid": "simulator-out", "data-ack": item.ack, "data-message-id": item.id }}
      footer={
        <>
          <Time iso={item.createdAt} />
          <AckIcon ack={item.ack} error={item.ackError} />
        </>
      }
    >
      <ThreadContent item={item} />
    </Bubble>
  );
}

/** What the customer sent and Charla recorded (right), from the server's history. */
export function CustomerBubble({ item }: { item: SimulatorThreadItem }) {
  return (
    <Bubble
      side="in"
      attrs={{ "data-testid": "simulator-in", "data-status": "sent", "data-message-id": item.id }}
      footer={
        <>
          <Time iso={item.createdAt} />
          <SentStatusIcon status="sent" />
        </>
      }
    >
      <ThreadContent item={item} />
    </Bubble>
  );
}

/** A customer message this tab is still sending, or failed to send. */
export function SentBubble({ item }: { item: SentItem }) {
  const { t } = useTranslation("simulator");
  let content: ReactNode;
  if (item.kind === "location" && item.location) {
    const { latitude, longitude, description } = item.location;
    content = (
      <LocationCard
        description={description ?? ""}
        link={mapsLink(latitude, longitude)}
        coordinates={`${latitude}, ${longitude}`}
      />
    );
  } else if (item.kind === "vcard" && item.vcard) {
    content = <VcardCard name={item.vcard.name} number={item.vcard.number} />;
  } else if (item.kind !== "chat") {
    const name = item.fileName || t("thread.file");
    content = (
      <>
        <FileLine name={name} />
        <Text>{item.body}</Text>
      </>
    );
  } else {
    content = <Text>{item.body}</Text>;
  }
  return (
    <Bubble
      side="in"
      attrs={{ "data-testid": "simulator-in", "data-status": item.status }}
      footer={
        <>
          <Time iso={item.at} />
          <SentStatusIcon status={item.status} />
        </>
      }
    >
      {content}
    </Bubble>
  );
}
