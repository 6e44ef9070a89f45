import PhotoCameraIcon from "@mui/icons-material/PhotoCameraOutlined";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { type ChangeEvent, useRef } from "react";

type Props = {
  src: string | null;
  alt: string;
  buttonLabel: string;
  hint: string;
  accept: string;
  disabled?: boolean;
  /** Receives the chosen file; type and size checks are the caller's. */
  onFile: (file: File) => void;
  testId?: string;
};

export function AvatarPicker({ src, alt, buttonLabel, hint, accept, disabled, onFile, testId }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so choosing the same file again still fires a change.
    event.target.value = "";
    if (file) onFile(file);
  };

  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 2 }}>
      <Avatar src={src ?? undefined} alt={alt} sx={{ width: 72, height: 72 }} />
      <Box sx={{ display: "flex", flexDirection: "column", alignItems: "flex-start", gap: 0.5 }}>
        <Button
          variant="outlined"
          color="inherit"
          size="small"
          startIcon={<PhotoCameraIcon />}
          disabled={disabled}
          onClick={() => input.current?.click()}
        >
          {buttonLabel}
        </Button>
        <Typography variant="caption" sx={{ color: "text.secondary" }}>
          {hint}
        </Typography>
      </Box>
      <input ref={input} type="file" accept={accept} hidden onChange={pick} data-testid={testId} />
    </Box>
  );
}
