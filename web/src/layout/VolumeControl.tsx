import VolumeOffIcon from "@mui/icons-material/VolumeOff";
import VolumeUpIcon from "@mui/icons-material/VolumeUp";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Tooltip from "../components/LightTooltip";
import { Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { LazyPopover, preloadPopovers } from "../components/LazyPopover";
import { lazyLoaded } from "../lib/lazy-loaded";
import { loader } from "../lib/loader";
import { readVolume, writeVolume } from "../lib/volume";

// MUI's slider is a sizeable chunk the top bar shows only in this popover: fetched when the pointer
// reaches the button, not with every page.
const loadSlider = loader(() => import("@mui/material/Slider"));
const Slider = lazyLoaded(loadSlider);
const preloadSlider = () => {
  void loadSlider().catch(() => undefined);
  preloadPopovers();
};

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
          onPointerEnter={preloadSlider}
          onFocus={preloadSlider}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          {volume === 0 ? <VolumeOffIcon /> : <VolumeUpIcon />}
        </IconButton>
      </Tooltip>
      <LazyPopover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
        transformOrigin={{ vertical: "top", horizontal: "center" }}
        slotProps={{ paper: { sx: { px: 3, py: 1.5, width: 220 } } }}
      >
        <Suspense fallback={<Box sx={{ height: 30 }} />}>
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
        </Suspense>
      </LazyPopover>
    </>
  );
}
