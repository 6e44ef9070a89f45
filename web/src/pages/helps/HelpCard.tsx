import PlayIcon from "@mui/icons-material/PlayCircleOutlineOutlined";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardActionArea from "@mui/material/CardActionArea";
import CardContent from "@mui/material/CardContent";
import Typography from "@mui/material/Typography";
import { youtubeThumbnail } from "@charla/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { HelpView } from "../../api/helps";

/** The 16:9 box the thumbnail, its placeholder and the player share, so nothing moves when one fails. */
export const videoBox = { position: "relative", width: "100%", aspectRatio: "16 / 9", bgcolor: "grey.900" } as const;

/**
 * A help video's card: thumbnail, title and description (secondary §2). When the thumbnail cannot
 * load (YouTube blocked by a network or a browser policy) a placeholder of the same size takes its place.
 */
export function HelpCard({ help, onOpen }: { help: HelpView; onOpen: () => void }) {
  const { t } = useTranslation("helps");
  const [broken, setBroken] = useState(false);
  return (
    <Card variant="outlined" sx={{ height: "100%" }} data-testid="help-card">
      <CardActionArea
        onClick={onOpen}
        aria-label={t("openVideo", { title: help.title })}
        sx={{ height: "100%", display: "flex", flexDirection: "column", alignItems: "stretch", justifyContent: "flex-start" }}
      >
        <Box sx={videoBox}>
          {broken ? (
            <Box
              data-testid="help-thumbnail-placeholder"
              sx={{
                position: "absolute",
                inset: 0,
                display: "flex",
                flexDirection: "column",
                alignItems: "center",
                justifyContent: "center",
                gap: 0.5,
                color: "grey.400",
              }}
            >
              <PlayIcon sx={{ fontSize: 48 }} />
              <Typography variant="caption">{t("noThumbnail")}</Typography>
            </Box>
          ) : (
            <Box
              component="img"
              src={youtubeThumbnail(help.video)}
              alt=""
              loading="lazy"
              referrerPolicy="no-referrer"
              onError={() => setBroken(true)}
              data-testid="help-thumbnail"
              sx={{ position: "absolute", inset: 0, width: "100%", height: "100%", objectFit: "cover", display: "block" }}
            />
          )}
        </Box>
        <CardContent sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, wordBreak: "break-word" }}>
            {help.title}
          </Typography>
          {help.description && (
            <Typography
              variant="body2"
              sx={{
                color: "text.secondary",
                wordBreak: "break-word",
                display: "-webkit-box",
                WebkitLineClamp: 3,
                WebkitBoxOrient: "vertical",
                overflow: "hidden",
              }}
            >
              {help.description}
            </Typography>
          )}
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
