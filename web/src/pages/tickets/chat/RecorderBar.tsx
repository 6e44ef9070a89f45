import { keyframes } from "@emotion/react";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import SendIcon from "@mui/icons-material/Send";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

const pulse = keyframes`
  0%, 100% { opacity: 1; }
  50% { opacity: 0.25; }
`;

function elapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
}

type Props = { startedAt: number; busy: boolean; onCancel: () => void; onSend: () => void };

/** core §4 audio recording: recording (timer) → sent or cancelled. */
export function RecorderBar({ startedAt, busy, onCancel, onSend }: Props) {
  const { t } = useTranslation("chat");
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return (
    <Box
      sx={{ flex: 1, display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1.5, minHeight: 44 }}
      data-testid="composer-recording"
    >
      <Tooltip title={t("audio.cancel")}>
        <span>
          <IconButton onClick={onCancel} disabled={busy} aria-label={t("audio.cancel")} data-testid="composer-record-cancel">
            <DeleteIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <Box sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: "error.main", animation: `${pulse} 1.2s infinite` }} />
        <Typography variant="body1" sx={{ fontVariantNumeric: "tabular-nums", minWidth: 48 }} data-testid="composer-record-timer">
          {elapsed(now - startedAt)}
        </Typography>
      </Box>
      <Tooltip title={t("audio.send")}>
        <span>
          <IconButton
            onClick={onSend}
            disabled={busy}
            aria-label={t("audio.send")}
            data-testid="composer-record-send"
            sx={{ bgcolor: "primary.main", color: "primary.contrastText", "&:hover": { bgcolor: "primary.dark" } }}
          >
            {busy ? <CircularProgress size={20} color="inherit" /> : <SendIcon />}
          </IconButton>
        </span>
      </Tooltip>
    </Box>
  );
}
