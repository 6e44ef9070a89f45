import type { MessageView } from "@charla/contracts";
import PlaceIcon from "@mui/icons-material/LocationOn";
import PersonIcon from "@mui/icons-material/Person";
import PhoneMissedIcon from "@mui/icons-material/PhoneMissed";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatPhoneNumber } from "../../../lib/phone";
import { AudioMedia, DocumentMedia, ImageMedia, VideoMedia } from "./MessageMedia";
import { MessageText } from "./MessageText";
import { parseLocation, parseVcard } from "../../../components/share/share-bodies";

type Props = { message: MessageView; highlight?: string | null; meta: ReactNode };

const textSx = { whiteSpace: "pre-wrap", overflowWrap: "anywhere", fontSize: 14.2, lineHeight: 1.4 } as const;

/** Text with the time floated into its last line when it fits (the way WhatsApp lays a bubble out). */
function TextBlock({ text, highlight, meta }: { text: ReactNode | string; highlight?: string | null; meta: ReactNode }) {
  return (
    <Box sx={textSx} data-testid="message-text">
      {typeof text === "string" ? <MessageText text={text} highlight={highlight} /> : text}
      <Box component="span" sx={{ float: "right", ml: 1.25, mt: "6px", mb: "-4px", position: "relative", top: 2 }}>
        {meta}
      </Box>
    </Box>
  );
}

function MetaRow({ meta }: { meta: ReactNode }) {
  return <Box sx={{ display: "flex", justifyContent: "flex-end", mt: 0.25 }}>{meta}</Box>;
}

function LocationCard({ body }: { body: string }) {
  const { t } = useTranslation("chat");
  const { imageUrl, link, description } = parseLocation(body);
  const preview = imageUrl ? (
    <Box component="img" src={imageUrl} alt="" sx={{ width: "100%", height: 140, objectFit: "cover", display: "block" }} />
  ) : (
    <Box
      sx={{
        height: 120,
        display: "grid",
        placeItems: "center",
        background: "repeating-linear-gradient(45deg, #dfe8d8 0 14px, #e8efe2 14px 28px)",
      }}
    >
      <PlaceIcon sx={{ fontSize: 44, color: "#e53935", filter: "drop-shadow(0 2px 2px rgba(0,0,0,.3))" }} />
    </Box>
  );
  const card = (
    <Box sx={{ width: 260, maxWidth: "100%", borderRadius: 1.5, overflow: "hidden", bgcolor: "rgba(0,0,0,0.05)" }}>
      {preview}
      <Box sx={{ px: 1, py: 0.75, display: "flex", gap: 0.75, alignItems: "flex-start" }}>
        <PlaceIcon fontSize="small" sx={{ mt: 0.25, opacity: 0.7 }} />
        <Box sx={{ minWidth: 0 }}>
          {/* The description is the contact's text: plain React text, never markup. */}
          <Typography variant="body2" sx={{ ...textSx, fontWeight: 500 }} data-testid="location-description">
            {description || t("media.location")}
          </Typography>
          {link && (
            <Typography variant="caption" sx={{ color: "info.main" }}>
              {t("location.open")}
            </Typography>
          )}
        </Box>
      </Box>
    </Box>
  );
  if (!link) return card;
  return (
    <Link href={link} target="_blank" rel="noopener noreferrer" underline="none" color="inherit" data-testid="location-link">
      {card}
    </Link>
  );
}

function VcardCard({ body }: { body: string }) {
  const { t } = useTranslation("chat");
  const { name, number } = parseVcard(body);
  const digits = number.replace(/\D/g, "");
  return (
    <Box
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 1.25,
        p: 1,
        borderRadius: 1.5,
        bgcolor: "rgba(0,0,0,0.05)",
        minWidth: 220,
      }}
      data-testid="vcard"
    >
      <Avatar sx={{ width: 40, height: 40, bgcolor: "#8696a0" }}>
        <PersonIcon />
      </Avatar>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" noWrap sx={{ fontWeight: 600 }}>
          {name || t("media.contact")}
        </Typography>
        {number && (
          <Typography variant="caption" sx={{ opacity: 0.75 }}>
            {digits ? formatPhoneNumber(digits) : number}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

function CallLine() {
  const { t } = useTranslation("chat");
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
      <PhoneMissedIcon fontSize="small" sx={{ color: "error.main" }} />
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {t("media.missedCall")}
      </Typography>
    </Box>
  );
}

/** A caption is worth showing when it says more than the file name the server stores as body. */
function captionOf(message: MessageView): string {
  const body = message.body.trim();
  if (!body || body === message.mediaName) return "";
  return message.body;
}

function mediaOf(message: MessageView & { mediaUrl: string }): ReactNode {
  const name = message.mediaName || message.body || "archivo";
  switch (message.mediaType) {
    case "image":
      return <ImageMedia mediaUrl={message.mediaUrl} name={name} />;
    case "sticker":
      return <ImageMedia mediaUrl={message.mediaUrl} name={name} sticker />;
    case "audio":
      return <AudioMedia mediaUrl={message.mediaUrl} />;
    case "video":
      return <VideoMedia mediaUrl={message.mediaUrl} />;
    default:
      return <DocumentMedia mediaUrl={message.mediaUrl} name={name} />;
  }
}

/** What a message shows, by `mediaType` (core §2), with its time and ticks (`meta`) in place. */
export function MessageBody({ message, highlight, meta }: Props) {
  const { t } = useTranslation("chat");
  const { mediaType } = message;
  if (mediaType === "locationMessage" || mediaType === "vcard" || mediaType === "call_log") {
    const card =
      mediaType === "locationMessage" ? (
        <LocationCard body={message.body} />
      ) : mediaType === "vcard" ? (
        <VcardCard body={message.body} />
      ) : (
        <CallLine />
      );
    return (
      <>
        {card}
        <MetaRow meta={meta} />
      </>
    );
  }
  if (message.mediaUrl && mediaType !== "chat") {
    const caption = captionOf(message);
    return (
      <>
        {mediaOf({ ...message, mediaUrl: message.mediaUrl })}
        {caption ? <TextBlock text={caption} highlight={highlight} meta={meta} /> : <MetaRow meta={meta} />}
      </>
    );
  }
  const text = message.body || (mediaType !== "chat" ? t("media.unavailable") : "");
  return <TextBlock text={text} highlight={highlight} meta={meta} />;
}
