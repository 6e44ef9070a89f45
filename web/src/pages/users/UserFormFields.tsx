import { Profiles, type QueueRef } from "@charla/contracts";
import Box from "@mui/material/Box";
import Checkbox from "@mui/material/Checkbox";
import Chip from "@mui/material/Chip";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { type Control, Controller, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { WhatsappRef } from "../../api/lookups";
import { FormTextField } from "../../components/form/FormTextField";
import { validationText } from "../../lib/validation";
import type { UserFormRights, UserFormValues } from "./user-form";

type Props = {
  control: Control<UserFormValues>;
  rights: UserFormRights;
  isNew: boolean;
  /** Editing oneself: a new password asks for the current one. */
  isSelf?: boolean;
  queues: QueueRef[];
  whatsapps: WhatsappRef[];
};

const twoColumns = { display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } };

export function UserFormFields({ control, rights, isNew, isSelf = false, queues, whatsapps }: Props) {
  const { t } = useTranslation("users");
  const newPassword = useWatch({ control, name: "password" });
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Box sx={twoColumns}>
        <FormTextField control={control} name="name" label={t("modal.name")} autoFocus fullWidth testId="user-name" />
        <FormTextField
          control={control}
          name="password"
          password
          label={t("modal.password")}
          autoComplete="new-password"
          fullWidth
          helperText={isNew ? undefined : t("modal.passwordKeep")}
          testId="user-password"
        />
      </Box>
      {isSelf && !!newPassword && (
        <Box sx={twoColumns}>
          <Box sx={{ display: { xs: "none", sm: "block" } }} />
          <FormTextField
            control={control}
            name="currentPassword"
            password
            label={t("modal.currentPassword")}
            autoComplete="current-password"
            fullWidth
            helperText={t("modal.currentPasswordHelp")}
            testId="user-current-password"
          />
        </Box>
      )}
      <Box sx={twoColumns}>
        <FormTextField
          control={control}
          name="email"
          label={t("modal.email")}
          type="email"
          autoComplete="off"
          fullWidth
          testId="user-email"
        />
        {rights.profile && (
          <Controller
            name="profile"
            control={control}
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                inputRef={field.ref}
                select
                label={t("modal.profile")}
                fullWidth
                error={!!fieldState.error}
                helperText={validationText(fieldState.error?.message)}
                slotProps={{ select: { SelectDisplayProps: { "data-testid": "user-profile" } as object } }}
              >
                {Profiles.map((profile) => (
                  <MenuItem key={profile} value={profile} data-testid={`user-profile-${profile}`}>
                    {t(`common:profiles.${profile}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        )}
      </Box>
      {rights.queues && (
        <Controller
          name="queueIds"
          control={control}
          render={({ field }) => (
            <TextField
              select
              label={t("modal.queues")}
              fullWidth
              value={field.value}
              onChange={(event) => field.onChange(event.target.value as unknown as number[])}
              slotProps={{
                select: {
                  multiple: true,
                  SelectDisplayProps: { "data-testid": "user-queues" } as object,
                  renderValue: (selected) => (
                    <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
                      {queues
                        .filter((queue) => (selected as number[]).includes(queue.id))
                        .map((queue) => (
                          <Chip
                            key={queue.id}
                            label={queue.name}
                            size="small"
                            sx={{ bgcolor: queue.color, color: (theme) => theme.palette.getContrastText(queue.color) }}
                          />
                        ))}
                    </Box>
                  ),
                },
              }}
            >
              {queues.map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  {queue.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
      {(rights.queues || rights.profile) && (
        <Box sx={twoColumns}>
          {rights.queues && (
            <Controller
              name="whatsappId"
              control={control}
              render={({ field }) => (
                <TextField
                  select
                  label={t("modal.whatsapp")}
                  fullWidth
                  value={field.value ?? ""}
                  onChange={(event) => field.onChange(event.target.value === "" ? null : Number(event.target.value))}
                  slotProps={{
                    // "None" is a real choice (value ""), so it is displayed like any other.
                    select: { displayEmpty: true, SelectDisplayProps: { "data-testid": "user-whatsapp" } as object },
                    inputLabel: { shrink: true },
                  }}
                >
                  <MenuItem value="">{t("modal.whatsappNone")}</MenuItem>
                  {whatsapps.map((whatsapp) => (
                    <MenuItem key={whatsapp.id} value={whatsapp.id}>
                      {whatsapp.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          )}
          {rights.profile && (
            <Controller
              name="allTicket"
              control={control}
              render={({ field }) => (
                <TextField
                  {...field}
                  inputRef={field.ref}
                  select
                  label={t("modal.allTicket")}
                  fullWidth
                  slotProps={{ select: { SelectDisplayProps: { "data-testid": "user-allticket" } as object } }}
                >
                  <MenuItem value="enable">{t("modal.allTicketEnable")}</MenuItem>
                  <MenuItem value="disable">{t("modal.allTicketDisable")}</MenuItem>
                </TextField>
              )}
            />
          )}
        </Box>
      )}
      {rights.super && (
        <Controller
          name="super"
          control={control}
          render={({ field }) => (
            <FormControlLabel
              label={t("modal.super")}
              control={
                <Checkbox
                  checked={field.value}
                  onChange={(event) => field.onChange(event.target.checked)}
                  slotProps={{ input: { "data-testid": "user-super" } as object }}
                />
              }
            />
          )}
        />
      )}
    </Box>
  );
}
