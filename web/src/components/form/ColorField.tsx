import { QUEUE_PALETTE } from "@charla/contracts";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import Typography from "@mui/material/Typography";
import type { Control, FieldValues, Path } from "react-hook-form";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "./FormTextField";

type Props<T extends FieldValues> = {
  control: Control<T>;
  name: Path<T>;
  label: string;
  /** Colours other rows use: dimmed (areas' colours are unique). */
  taken?: string[];
  /** `{testId}` on the input, `{testId}-swatch`, `{testId}-palette` on each preset. */
  testId: string;
};

/** The colour as text (#RRGGBB) with the 50 presets of core §5 to click; those already taken are dimmed and struck. */
export function ColorField<T extends FieldValues>({ control, name, label, taken = [], testId }: Props<T>) {
  const { t } = useTranslation();
  const used = new Set(taken.map((c) => c.toLowerCase()));
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Box sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
          <Box sx={{ display: "flex", alignItems: "flex-start", gap: 1.5 }}>
            <Box
              sx={{
                width: 40,
                height: 40,
                borderRadius: 1,
                border: 1,
                borderColor: "divider",
                bgcolor: field.value,
                flex: "none",
              }}
              data-testid={`${testId}-swatch`}
            />
            <FormTextField control={control} name={name} label={label} required fullWidth testId={testId} />
          </Box>
          <Typography variant="caption" color="text.secondary">
            {t("palette")}
          </Typography>
          <Box sx={{ display: "grid", gridTemplateColumns: "repeat(10, 1fr)", gap: 0.5, maxWidth: 360 }} role="listbox">
            {QUEUE_PALETTE.map((color) => {
              const selected = String(field.value ?? "").toLowerCase() === color.toLowerCase();
              const inUse = used.has(color.toLowerCase());
              const name = inUse ? t("paletteTaken", { color }) : color;
              return (
                <ButtonBase
                  key={color}
                  role="option"
                  aria-selected={selected}
                  aria-label={name}
                  title={name}
                  data-taken={inUse || undefined}
                  onClick={() => field.onChange(color)}
                  data-testid={`${testId}-palette`}
                  sx={{
                    aspectRatio: "1",
                    borderRadius: 0.75,
                    bgcolor: color,
                    border: selected ? 3 : 1,
                    borderColor: selected ? "primary.main" : "divider",
                    opacity: inUse && !selected ? 0.35 : 1,
                    // struck through as well as faded: "taken" must not rest on telling faint colours apart
                    backgroundImage: inUse
                      ? "linear-gradient(to top right, transparent calc(50% - 1.5px), rgba(0,0,0,.75) calc(50% - 1.5px), rgba(0,0,0,.75) calc(50% + 1.5px), transparent calc(50% + 1.5px))"
                      : undefined,
                  }}
                />
              );
            })}
          </Box>
        </Box>
      )}
    />
  );
}
