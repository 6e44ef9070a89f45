import type { MessageView } from "@charla/contracts";
import { keyframes } from "@emotion/react";
import BlockIcon from "@mui/icons-material/Block";
import SmartToyIcon from "@mui/icons-material/SmartToyOutlined";
import Box from "@mui/material/Box";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { AckIcon } from "./AckIcon";
import { type BubbleColors, useBubbleColors } from "./chat-colors";
import { MessageBody } from "./MessageBody";
import { MessageMenu } from "./MessageMenu";
import { MessageText } from "./MessageText";
import { formatTime } from "../../../lib/company-time";
import { previewOf } from "./message-parts";

type Props = {
  message: MessageView;
  /** Continues the previous bubble of the same side: no tail, tighter spacing. */
  grouped: boolean;
  contactName: string;
  highlight?: string | null;
  focused: boolean;
  onReply: (message: MessageView) => void;
  onDelete: (message: MessageView) => void;
  onQuoteClick: (messageId: number) => void;
};

const flash = keyframes`
  0%, 60% { box-shadow: 0 0 0 3px rgba(255, 193, 7, 0.9); }
  100% { box-shadow: 0 1px 0.5px rgba(11, 20, 26, 0.13); }
`;

function Meta({ message }: { message: MessageView }) {
  const { t } = useTranslation("chat");
  return (
    // a failed message's mark must stand out, not fade with the time beside it
    <Box
      component="span"
      sx={{ display: "inline-flex", alignItems: "center", gap: 0.4, opacity: message.ack < 0 ? 1 : 0.65, whiteSpace: "nowrap" }}
    >
      {message.isAutomatic && (
        <Tooltip title={t("message.automatic")}>
          <SmartToyIcon sx={{ fontSize: 13 }} data-testid="message-automatic" aria-label={t("message.automatic")} />
        </Tooltip>
      )}
      {message.isEdited && (
        <Typography component="span" sx={{ fontSize: 11, fontStyle: "italic" }}>
          {t("message.edited")}
        </Typography>
      )}
      <Typography component="span" sx={{ fontSize: 11, lineHeight: 1 }} data-testid="message-time">
        {formatTime(message.createdAt)}
      </Typography>
      {message.fromMe && <AckIcon ack={message.ack} error={message.ackError} />}
    </Box>
  );
}

function Quote({
  message,
  contactName,
  colors,
  onClick,
}: {
  message: MessageView;
  contactName: string;
  colors: BubbleColors;
  onClick: (id: number) => void;
}) {
  const { t } = useTranslation("chat");
  const quoted = message.quotedMsg;
  if (!quoted) return null;
  return (
    <Box
      component="button"
      type="button"
      onClick={() => onClick(quoted.id)}
      data-testid="message-quote"
      sx={{
        all: "unset",
        boxSizing: "border-box",
        display: "block",
        cursor: "pointer",
        width: "100%",
        mb: 0.5,
        px: 1,
        py: 0.5,
        borderRadius: 1.5,
        borderLeft: `4px solid ${quoted.fromMe ? colors.quoteMine : colors.quoteTheirs}`,
        bgcolor: colors.quoteBg,
      }}
    >
      <Typography
        variant="caption"
        component="div"
        sx={{ fontWeight: 600, color: quoted.fromMe ? colors.quoteMine : colors.quoteTheirs }}
      >
        {quoted.fromMe ? t("message.you") : contactName}
      </Typography>
      <Typography
        variant="body2"
        component="div"
        sx={{
          opacity: 0.8,
          display: "-webkit-box",
          WebkitLineClamp: 3,
          WebkitBoxOrient: "vertical",
          overflow: "hidden",
          whiteSpace: "pre-wrap",
          overflowWrap: "anywhere",
        }}
      >
        {quoted.mediaType === "chat" && quoted.body ? <MessageText text={quoted.body} links={false} /> : previewOf(quoted, t)}
      </Typography>
    </Box>
  );
}

function tailSx(mine: boolean, color: string) {
  return {
    content: '""',
    position: "absolute",
    top: 0,
    [mine ? "right" : "left"]: -8,
    width: 8,
    height: 13,
    bgcolor: color,
    clipPath: mine ? "polygon(0 0, 100% 0, 0 100%)" : "polygon(0 0, 100% 0, 100% 100%)",
  } as const;
}

/** One bubble (core §2): fromMe on the right, at most 600 px wide, menu on hover, time and ticks. */
function MessageBubbleBase({ message, grouped, contactName, highlight, focused, onReply, onDelete, onQuoteClick }: Props) {
  const { t } = useTranslation("chat");
  const colors = useBubbleColors();
  const theme = useTheme();
  const mine = message.fromMe;
  const background = mine ? colors.mine : colors.theirs;
  const struck = message.isDeleted && mine;
  return (
    <Box
      sx={{
        display: "flex",
        justifyContent: mine ? "flex-end" : "flex-start",
        px: { xs: 1.5, sm: 4, md: 6 },
        mt: grouped ? "2px" : 1,
        // thousands of loaded messages stay smooth: the browser skips layout and paint of rows off
        // screen, while scroll anchoring and find-in-page keep working (unlike JS windowing of a
        // reverse-scrolling list with rows of unknown height)
        contentVisibility: "auto",
        containIntrinsicSize: "auto 56px",
      }}
    >
      <Box
        id={`message-${message.id}`}
        data-testid="message"
        data-message-id={message.id}
        data-from-me={String(mine)}
        data-ack={message.ack}
        data-deleted={String(message.isDeleted)}
        sx={{
          position: "relative",
          maxWidth: "min(600px, 88%)",
          minWidth: 80,
          px: 1,
          pt: 0.75,
          pb: 0.75,
          borderRadius: 2,
          borderTopRightRadius: mine && !grouped ? 0 : undefined,
          borderTopLeftRadius: !mine && !grouped ? 0 : undefined,
          bgcolor: background,
          color: colors.text,
          boxShadow: "0 1px 0.5px rgba(11, 20, 26, 0.13)",
          animation: focused ? `${flash} 2.4s ease-out` : undefined,
          "&::before": grouped ? undefined : tailSx(mine, background),
          "&:hover .message-menu, & .message-menu[aria-expanded='true']": { opacity: 1 },
          // Where the menu arrow is always shown (touch, narrow screens) it gets its own gutter on the
          // right instead of lying over the time of a one-line bubble.
          "@media (hover: none)": { pr: 3.5, "& .message-menu": { opacity: 0.8 } },
          [theme.breakpoints.down("sm")]: { pr: 3.5, "& .message-menu": { opacity: 0.8 } },
        }}
      >
        <MessageMenu message={message} background={background} onReply={onReply} onDelete={onDelete} />
        {!mine && message.participantName && !grouped && (
          <Typography
            variant="caption"
            component="div"
            sx={{ fontWeight: 600, color: colors.participant(message.participantName), pr: 3 }}
          >
            {message.participantName}
          </Typography>
        )}
        <Quote message={message} contactName={contactName} colors={colors} onClick={onQuoteClick} />
        {message.isDeleted && !mine && (
          <Box
            sx={{ display: "flex", alignItems: "center", gap: 0.5, fontStyle: "italic", opacity: 0.7, fontSize: 13, mb: 0.25 }}
          >
            <BlockIcon sx={{ fontSize: 15 }} />
            {t("message.deletedByContact")}
          </Box>
        )}
        <Box sx={{ textDecoration: struck ? "line-through" : undefined, opacity: message.isDeleted ? 0.6 : 1 }}>
          <MessageBody message={message} highlight={highlight} meta={<Meta message={message} />} />
        </Box>
      </Box>
    </Box>
  );
}

export const MessageBubble = memo(MessageBubbleBase);
