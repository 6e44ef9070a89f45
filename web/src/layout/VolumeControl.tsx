import VolumeOffIcon from "@mui/icons-material/VolumeOff";
import VolumeUpIcon from "@mui/icons-material/VolumeUp";
import IconButton from "@mui/material/IconButton";
import Popover from "@mui/material/Popover";
import Slider from "@mui/material/Slider";
import Tooltip from "@mui/material/Tooltip";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { readVolume, writeVolume } from "../lib/volume";

export function VolumeControl() {
  const { t } = useTranslation("layout");
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [volume, setVolume] = useState(readVolume);

  const change = (value: number) => {
    setVolume(value);
    writeVolume(value);
  };

  return (
    <>
      <Tooltip title={t("volume")}>
        <IconButton
          color="inherit"
          size="small"
          aria-label={t("volume")}
          data-testid="volume-button"
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          {volume === 0 ? <VolumeOffIcon /> : <VolumeUpIcon />}
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
        transformOrigin={{ vertical: "top", horizontal: "center" }}
        slotProps={{ paper: { sx: { px: 3, py: 1.5, width: 220 } } }}
      >
        <Slider
          value={volume}
          min={0}
          max={1}
          step={0.1}
          valueLabelDisplay="auto"
          aria-label={t("volume")}
          onChange={(_, value) => change(value as number)}
          data-testid="volume-slider"
        />
      </Popover>
    </>
  );
}
