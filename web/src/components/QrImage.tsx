import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import QRCode from "qrcode";
import { useEffect, useState } from "react";

type Props = {
  value: string;
  alt: string;
  /** Shown width in CSS pixels (drawn at twice that for sharp screens). */
  size: number;
  /** "L" for a short-lived WhatsApp code; "M" for a payment code a phone may scan off a dim screen. */
  level?: "L" | "M";
  testId: string;
};

/**
 * A text drawn as a QR image in the browser (the text never goes to an image service); a new text
 * (a renewed session code) redraws it.
 */
export function QrImage({ value, alt, size, level = "L", testId }: Props) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    QRCode.toDataURL(value, { width: size * 2, margin: 2, errorCorrectionLevel: level })
      .then((url) => {
        if (current) setSrc(url);
      })
      .catch(() => {
        if (current) setSrc(null);
      });
    return () => {
      current = false;
    };
  }, [value, size, level]);
  if (!src) return <CircularProgress />;
  return (
    <Box
      component="img"
      src={src}
      alt={alt}
      data-testid={testId}
      data-qr={value}
      sx={{ width: size, maxWidth: "100%", aspectRatio: "1", display: "block", bgcolor: "#fff", borderRadius: 1 }}
    />
  );
}
