import { V } from "@charla/contracts";
import Box from "@mui/material/Box";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import { type Control, Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFileListOptions } from "../../api/campaigns";
import { useContactListOptions } from "../../api/contact-lists";
import { useWhatsapps } from "../../api/lookups";
import { useTagOptions } from "../../api/tags";
import { FormTextField } from "../../components/form/FormTextField";
import { validationText } from "../../lib/validation";
import type { CampaignValues } from "./campaign-form";
import { ScheduleField } from "./ScheduleField";

type Option = { id: number; name: string };
type Props = { control: Control<CampaignValues>; disabled: boolean };

const twoColumns = { display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } };

/** A choice among the company's records, or none (`noneLabel`): the id or null. */
function IdSelect(props: {
  control: Control<CampaignValues>;
  name: "whatsappId" | "contactListId" | "tagListId" | "fileListId";
  label: string;
  noneLabel: string;
  options: Option[];
  disabled: boolean;
  testId: string;
  /** What "required" means here, when the field alone does not say it. */
  requiredText?: string;
}) {
  return (
    <Controller
      name={props.name}
      control={props.control}
      render={({ field, fieldState }) => (
        <TextField
          select
          label={props.label}
          fullWidth
          disabled={props.disabled}
          value={field.value ?? ""}
          onChange={(event) => field.onChange(event.target.value === "" ? null : Number(event.target.value))}
          onBlur={field.onBlur}
          error={!!fieldState.error}
          helperText={
            fieldState.error?.message === V.required && props.requiredText
              ? props.requiredText
              : validationText(fieldState.error?.message)
          }
          slotProps={{
            // "none" is a real choice (value ""), so it is displayed like any other
            select: { displayEmpty: true, SelectDisplayProps: { "data-testid": props.testId } as object },
            inputLabel: { shrink: true },
          }}
        >
          <MenuItem value="">{props.noneLabel}</MenuItem>
          {props.options.map((option) => (
            <MenuItem key={option.id} value={option.id} data-testid={`${props.testId}-option`}>
              {option.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

/** secondary §2 Campaign dialog: everything but the messages and the file. */
export function CampaignFields({ control, disabled }: Props) {
  const { t } = useTranslation("campaigns");
  const whatsapps = useWhatsapps();
  // which connection "the default one" is, by name (issue 26)
  const defaultName = whatsapps.data?.find((wa) => wa.isDefault)?.name;
  const lists = useContactListOptions();
  const tags = useTagOptions();
  const fileLists = useFileListOptions();
  return (
    <>
      <FormTextField
        control={control}
        name="name"
        label={t("modal.name")}
        required
        autoFocus={!disabled}
        fullWidth
        autoComplete="off"
        disabled={disabled}
        testId="campaign-name"
      />
      <Box sx={twoColumns}>
        <IdSelect
          control={control}
          name="contactListId"
          label={t("modal.contactList")}
          noneLabel={t("modal.none")}
          options={lists.data ?? []}
          disabled={disabled}
          testId="campaign-contact-list"
          // the server's rule: a list, or a tag whose contacts get it
          requiredText={t("modal.audienceRequired")}
        />
        <IdSelect
          control={control}
          name="tagListId"
          label={t("modal.tag")}
          noneLabel={t("modal.none")}
          options={tags.data ?? []}
          disabled={disabled}
          testId="campaign-tag"
        />
        <IdSelect
          control={control}
          name="whatsappId"
          label={t("modal.connection")}
          noneLabel={defaultName ? t("modal.defaultConnectionNamed", { name: defaultName }) : t("modal.defaultConnection")}
          options={whatsapps.data ?? []}
          disabled={disabled}
          testId="campaign-connection"
        />
        <ScheduleField control={control} disabled={disabled} />
      </Box>
      <Box sx={{ ...twoColumns, alignItems: "center" }}>
        <Controller
          name="confirmation"
          control={control}
          render={({ field }) => (
            <FormControlLabel
              label={t("modal.confirmation")}
              disabled={disabled}
              control={
                <Switch
                  checked={field.value}
                  onChange={(event) => field.onChange(event.target.checked)}
                  onBlur={field.onBlur}
                  slotProps={{ input: { "data-testid": "campaign-confirmation" } as object }}
                />
              }
            />
          )}
        />
        <IdSelect
          control={control}
          name="fileListId"
          label={t("modal.fileList")}
          noneLabel={t("modal.none")}
          options={fileLists.data ?? []}
          disabled={disabled}
          testId="campaign-file-list"
        />
      </Box>
    </>
  );
}
