import BrokenImageIcon from "@mui/icons-material/BrokenImageOutlined";
import CloseIcon from "@mui/icons-material/Close";
import DownloadIcon from "@mui/icons-material/DownloadOutlined";
import FileIcon from "@mui/icons-material/InsertDriveFileOutlined";
import PdfIcon from "@mui/icons-material/PictureAsPdfOutlined";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import IconButton from "@mui/material/IconButton";
import Skeleton from "@mui/material/Skeleton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../../api/errors";
import { fetchMessageMedia, useMessageMedia } from "../../../api/messages";
import { saveBlob } from "../../../lib/save-blob";

const IMAGE_SIZE = { width: 300, height: 240 } as const;

function MediaFailed() {
  const { t } = useTranslation("chat");
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, py: 1, px: 0.5, opacity: 0.75 }}>
      <BrokenImageIcon fontSize="small" />
      <Typography variant="body2">{t("media.failed")}</Typography>
    </Box>
  );
}

function Lightbox({ url, name, onClose }: { url: string; name: string; onClose: () => void }) {
  const { t } = useTranslation("chat");
  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth={false}
      slotProps={{
        paper: { sx: { bgcolor: "transparent", boxShadow: "none", m: 1 } },
        backdrop: { sx: { bgcolor: "rgba(0,0,0,0.85)" } },
      }}
    >
      <Box sx={{ position: "fixed", top: 12, right: 12, display: "flex", gap: 1 }}>
        <Tooltip title={t("media.download")}>
          <IconButton component="a" href={url} download={name} sx={{ color: "#fff" }} aria-label={t("media.download")}>
            <DownloadIcon />
          </IconButton>
        </Tooltip>
        <IconButton onClick={onClose} sx={{ color: "#fff" }} aria-label={t("common:actions.close")}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Box
        component="img"
        src={url}
        alt={name}
        sx={{ display: "block", maxWidth: "92vw", maxHeight: "86vh", objectFit: "contain" }}
      />
    </Dialog>
  );
}

/** Pictures and stickers: a fixed frame (the list keeps its scroll position while they load), full size on click. */
export function ImageMedia({ mediaUrl, name, sticker }: { mediaUrl: string; name: string; sticker?: boolean }) {
  const { t } = useTranslation("chat");
  const media = useMessageMedia(mediaUrl);
  const [open, setOpen] = useState(false);
  const size = sticker ? { width: 150, height: 150 } : IMAGE_SIZE;
  if (media.failed) return <MediaFailed />;
  if (!media.url) return <Skeleton variant="rounded" sx={{ ...size, maxWidth: "100%" }} />;
  return (
    <>
      <Box
        component="button"
        type="button"
        onClick={() => setOpen(true)}
        aria-label={t("media.open")}
        sx={{ p: 0, border: 0, bgcolor: "transparent", cursor: "zoom-in", display: "block", maxWidth: "100%" }}
      >
        <Box
          component="img"
          src={media.url}
          alt={name}
          data-testid="message-image"
          sx={{ ...size, maxWidth: "100%", display: "block", objectFit: sticker ? "contain" : "cover", borderRadius: 1.5 }}
        />
      </Box>
      {open && <Lightbox url={media.url} name={name} onClose={() => setOpen(false)} />}
    </>
  );
}

export function AudioMedia({ mediaUrl }: { mediaUrl: string }) {
  const media = useMessageMedia(mediaUrl);
  if (media.failed) return <MediaFailed />;
  if (!media.url) return <Skeleton variant="rounded" sx={{ width: 280, height: 54, maxWidth: "100%" }} />;
  return (
    <Box
      component="audio"
      controls
      preload="metadata"
      src={media.url}
      sx={{ width: 300, maxWidth: "100%", height: 54, display: "block" }}
    />
  );
}

export function VideoMedia({ mediaUrl }: { mediaUrl: string }) {
  const media = useMessageMedia(mediaUrl);
  if (media.failed) return <MediaFailed />;
  if (!media.url) return <Skeleton variant="rounded" sx={{ ...IMAGE_SIZE, maxWidth: "100%" }} />;
  return (
    <Box
      component="video"
      controls
      preload="metadata"
      src={media.url}
      sx={{ ...IMAGE_SIZE, maxWidth: "100%", display: "block", borderRadius: 1.5, bgcolor: "#000" }}
    />
  );
}

/** Documents are only fetched when asked for. */
export function DocumentMedia({ mediaUrl, name }: { mediaUrl: string; name: string }) {
  const { t } = useTranslation("chat");
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const extension = /\.(\w{1,6})$/.exec(name)?.[1]?.toUpperCase() ?? "";
  const download = async () => {
    setBusy(true);
    try {
      saveBlob(await fetchMessageMedia(client, mediaUrl), name);
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 1.25,
        p: 1,
        borderRadius: 1.5,
        bgcolor: "rgba(0,0,0,0.05)",
        minWidth: { xs: 200, sm: 240 },
        maxWidth: "100%",
      }}
    >
      {extension === "PDF" ? <PdfIcon sx={{ color: "#e53935" }} /> : <FileIcon sx={{ opacity: 0.7 }} />}
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography variant="body2" noWrap title={name} sx={{ fontWeight: 500 }}>
          {name}
        </Typography>
        {extension && (
          <Typography variant="caption" sx={{ opacity: 0.7 }}>
            {extension}
          </Typography>
        )}
      </Box>
      <Tooltip title={t("media.download")}>
        <span>
          <IconButton
            size="small"
            onClick={download}
            disabled={busy}
            aria-label={t("media.download")}
            data-testid="message-download"
          >
            {busy ? <CircularProgress size={18} /> : <DownloadIcon fontSize="small" />}
          </IconButton>
        </span>
      </Tooltip>
    </Box>
  );
}
