import { useTheme } from "@mui/material/styles";
import { useMemo } from "react";

/** The conversation's palette, close to WhatsApp's so agents feel at home in both themes. */
export type BubbleColors = {
  wallpaper: string;
  mine: string;
  theirs: string;
  text: string;
  quoteBg: string;
  quoteMine: string;
  quoteTheirs: string;
  divider: string;
  composer: string;
  input: string;
  participant: (name: string) => string;
};

const PARTICIPANT_HUES = [12, 36, 160, 200, 262, 300, 330, 95];

function hashOf(text: string): number {
  let hash = 0;
  for (const ch of text) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) | 0;
  return Math.abs(hash);
}

export function useBubbleColors(): BubbleColors {
  const dark = useTheme().palette.mode === "dark";
  return useMemo(
    () => ({
      wallpaper: dark ? "#0b141a" : "#efeae2",
      mine: dark ? "#005c4b" : "#d9fdd3",
      theirs: dark ? "#202c33" : "#ffffff",
      text: dark ? "#e9edef" : "#111b21",
      quoteBg: dark ? "rgba(0,0,0,0.22)" : "rgba(11,20,26,0.05)",
      quoteMine: dark ? "#06cf9c" : "#06a884",
      quoteTheirs: dark ? "#a5b3ff" : "#5c59a0",
      divider: dark ? "#182229" : "#ffffff",
      composer: dark ? "#202c33" : "#f0f2f5",
      input: dark ? "#2a3942" : "#ffffff",
      participant: (name: string) =>
        `hsl(${PARTICIPANT_HUES[hashOf(name) % PARTICIPANT_HUES.length]} ${dark ? "70% 70%" : "60% 38%"})`,
    }),
    [dark],
  );
}
