import AddIcon from "@mui/icons-material/Add";
import RemoveIcon from "@mui/icons-material/DeleteOutlineOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormHelperText from "@mui/material/FormHelperText";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { type Control, type FieldErrors, useFieldArray } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../components/form/FormTextField";
import { validationText } from "../../lib/validation";
import { type ContactFormValues, emptyExtraInfo } from "./contact-form";

type Props = { control: Control<ContactFormValues>; errors: FieldErrors<ContactFormValues>; disabled?: boolean };

// The contract allows 50 pairs; the add button stops there.
const MAX_ITEMS = 50;

/** Extra information of a contact: free name/value pairs (customer data, shown only as text). */
export function ExtraInfoFields({ control, errors, disabled }: Props) {
  const { t } = useTranslation("contacts");
  const { fields, append, remove } = useFieldArray({ control, name: "extraInfo" });
  const listError = errors.extraInfo?.root?.message ?? errors.extraInfo?.message;

  return (
    <Stack sx={{ gap: 1.5 }} data-testid="contact-extra">
      <Typography variant="subtitle2" component="h3" sx={{ color: "text.secondary" }}>
        {t("modal.extraInfo")}
      </Typography>
      {fields.map((field, index) => (
        <Stack
          key={field.id}
          // Stacked under 600 px, each pair gets a frame so it reads as one item.
          sx={{
            flexDirection: "row",
            gap: 1,
            alignItems: "flex-start",
            p: { xs: 1.5, sm: 0 },
            pr: { xs: 0.5, sm: 0 },
            borderStyle: "solid",
            borderWidth: { xs: 1, sm: 0 },
            borderColor: "divider",
            borderRadius: 1,
          }}
          data-testid="contact-extra-row"
        >
          <Box
            sx={{
              flex: 1,
              minWidth: 0,
              display: "grid",
              gap: 1,
              gridTemplateColumns: { xs: "1fr", sm: "minmax(0, 2fr) minmax(0, 3fr)" },
            }}
          >
            <FormTextField
              control={control}
              name={`extraInfo.${index}.name`}
              label={t("modal.extraName")}
              size="small"
              fullWidth
              autoComplete="off"
              testId={`contact-extra-name-${index}`}
            />
            <FormTextField
              control={control}
              name={`extraInfo.${index}.value`}
              label={t("modal.extraValue")}
              size="small"
              fullWidth
              autoComplete="off"
              testId={`contact-extra-value-${index}`}
            />
          </Box>
          <Tooltip title={t("modal.extraRemove")}>
            <IconButton
              aria-label={t("modal.extraRemove")}
              onClick={() => remove(index)}
              disabled={disabled}
              data-testid={`contact-extra-remove-${index}`}
              sx={{ mt: 0.25 }}
            >
              <RemoveIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Stack>
      ))}
      {fields.length === 0 && (
        <Typography variant="body2" sx={{ color: "text.secondary" }}>
          {t("modal.extraEmpty")}
        </Typography>
      )}
      {listError && <FormHelperText error>{validationText(listError)}</FormHelperText>}
      <Box>
        <Button
          size="small"
          startIcon={<AddIcon />}
          onClick={() => append(emptyExtraInfo, { focusName: `extraInfo.${fields.length}.name` })}
          disabled={disabled || fields.length >= MAX_ITEMS}
          data-testid="contact-extra-add"
        >
          {t("modal.extraAdd")}
        </Button>
      </Box>
    </Stack>
  );
}
