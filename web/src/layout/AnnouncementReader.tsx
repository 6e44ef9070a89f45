import type { AnnouncementView } from "@charla/contracts";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useTranslation } from "react-i18next";
import { useProtectedImage } from "../api/media";
import { formatDateTime } from "../lib/company-time";

/** secondary §9: 1 high, 2 medium, 3 low. */
export const PRIORITY_COLOR = { 1: "error", 2: "warning", 3: "default" } as const;

/** The image sits behind the bearer token, so it is fetched and shown from memory. */
function AnnouncementImage({ announcement }: { announcement: AnnouncementView }) {
  const { t } = useTranslation("announcements");
  const image = useProtectedImage(`/announcements/${announcement.id}/media`, announcement.updatedAt);
  if (!image.url) return null;
  return (
    <Box
      component="img"
      src={image.url}
      alt={t("bell.image")}
      data-testid="announcement-reader-image"
      sx={{ display: "block", maxWidth: "100%", maxHeight: 360, borderRadius: 1, mt: 2, mx: "auto" }}
    />
  );
}

/** One announcement, whole: opened from the bell (which marks it read). */
export function AnnouncementReader({ announcement, onClose }: { announcement: AnnouncementView; onClose: () => void }) {
  const { t } = useTranslation("announcements");
  const narrow = useMediaQuery(useTheme().breakpoints.down("sm"));
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={narrow}
      slotProps={{ paper: { "data-testid": "announcement-reader" } as object }}
    >
      <DialogTitle sx={{ display: "flex", alignItems: "center", gap: 1, pr: 2 }}>
        <Box component="span" sx={{ flex: 1, minWidth: 0, overflowWrap: "anywhere" }} data-testid="announcement-reader-title">
          {announcement.title}
        </Box>
        <Chip
          size="small"
          variant="outlined"
          color={PRIORITY_COLOR[announcement.priority]}
          label={t(`priority.${announcement.priority}`)}
        />
      </DialogTitle>
      <DialogContent dividers>
        <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 1 }}>
          {formatDateTime(announcement.createdAt)}
        </Typography>
        <Typography sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} data-testid="announcement-reader-text">
          {announcement.text}
        </Typography>
        {announcement.mediaUrl && <AnnouncementImage announcement={announcement} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="announcement-reader-close">
          {t("bell.close")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
