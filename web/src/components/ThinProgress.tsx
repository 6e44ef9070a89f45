import Box, { type BoxProps } from "@mui/material/Box";
import { keyframes } from "@mui/material/styles";

const slide = keyframes`
  from { transform: translateX(-100%); }
  to { transform: translateX(250%); }
`;

/**
 * A 2 px bar that says "loading" above a list or a composer. MUI's LinearProgress draws the same line
 * with four animations and its variants: ~2.5 KB more (compressed) on the inbox's first load, which
 * shows it only while a list refreshes.
 */
export function ThinProgress({ sx, ...props }: Omit<BoxProps, "children">) {
  return (
    <Box
      role="progressbar"
      aria-busy
      {...props}
      sx={[{ height: 2, overflow: "hidden", bgcolor: "action.hover", position: "relative" }, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      <Box
        sx={{
          position: "absolute",
          inset: 0,
          width: "40%",
          bgcolor: "primary.main",
          animation: `${slide} 1.2s ease-in-out infinite`,
          "@media (prefers-reduced-motion: reduce)": { animation: "none", width: "100%", opacity: 0.5 },
        }}
      />
    </Box>
  );
}
