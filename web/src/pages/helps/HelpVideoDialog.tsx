import CloseIcon from "@mui/icons-material/Close";
import Box from "@mui/material/Box";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { youtubeEmbed } from "@charla/contracts";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import type { HelpView } from "../../api/helps";
import { videoBox } from "./HelpCard";

/**
 * The player of one help video (secondary §2: Escape closes it, as any MUI dialog). The privacy-enhanced
 * player is the one origin the CSP lets into a frame; when it is blocked anyway the frame keeps its
 * size and the link below opens the video on YouTube itself.
 */
export function HelpVideoDialog({ help, onClose }: { help: HelpView | null; onClose: () => void }) {
  const { t } = useTranslation("helps");
  // the closing dialog keeps showing its video while it fades out
  const last = useRef(help);
  if (help) last.current = help;
  const shown = help ?? last.current;
  return (
    <Dialog open={help !== null} onClose={onClose} maxWidth="md" fullWidth data-testid="help-video-dialog">
      {shown && (
        <>
          <DialogTitle sx={{ pr: 7, wordBreak: "break-word" }}>{shown.title}</DialogTitle>
          <IconButton aria-label={t("close")} onClick={onClose} sx={{ position: "absolute", right: 8, top: 8 }}>
            <CloseIcon />
          </IconButton>
          <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 1.5 }}>
            <Box sx={videoBox}>
              <Box
                component="iframe"
                src={youtubeEmbed(shown.video)}
                title={shown.title}
                allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
                allowFullScreen
                referrerPolicy="strict-origin-when-cross-origin"
                data-testid="help-player"
                sx={{ position: "absolute", inset: 0, width: "100%", height: "100%", border: 0 }}
              />
            </Box>
            {shown.description && (
              <Typography variant="body2" sx={{ color: "text.secondary", whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
                {shown.description}
              </Typography>
            )}
            <Link
              href={`https://www.youtube.com/watch?v=${encodeURIComponent(shown.video)}`}
              target="_blank"
              rel="noopener noreferrer"
              variant="body2"
            >
              {t("watchOnYoutube")}
            </Link>
          </DialogContent>
        </>
      )}
    </Dialog>
  );
}
