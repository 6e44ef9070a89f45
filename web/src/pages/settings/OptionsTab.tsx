import { type SettingKey, SettingDefinitions } from "@charla/contracts";
import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { toastError } from "../../api/errors";
import { useSettings, useUpdateSetting } from "../../api/settings";
import { SectionLoader } from "../../components/FullPageLoader";
import { TextSetting } from "./TextSetting";
import { integrationSettings, selectSettings } from "./options-config";

const grid = { display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", lg: "repeat(3, 1fr)" } };

/** core §2 Settings, tab Opciones: every change is saved at once. */
export function OptionsTab() {
  const { t } = useTranslation("settings");
  const settings = useSettings();
  const update = useUpdateSetting();
  const values = useMemo(() => new Map((settings.data ?? []).map((setting) => [setting.key, setting.value])), [settings.data]);
  const settingValue = (key: SettingKey) => values.get(key) ?? SettingDefinitions[key].default;

  useEffect(() => {
    if (!settings.isError) return;
    const text = t("common:feedback.loadList");
    toast.error(text, { toastId: text });
  }, [settings.isError, t]);

  const change = async (key: SettingKey, value: string) => {
    try {
      await update.mutateAsync({ key, value });
      toast.success(t("saved"));
    } catch (error) {
      toastError(error);
    }
  };

  if (settings.isLoading) return <SectionLoader />;

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 3 }}>
      <Box sx={grid}>
        {selectSettings.map((key) => (
          <TextField
            key={key}
            select
            label={t(`options.${key}.label`)}
            value={settingValue(key)}
            onChange={(event) => void change(key, event.target.value)}
            fullWidth
            slotProps={{ select: { SelectDisplayProps: { "data-testid": `setting-${key}` } as object } }}
          >
            {SettingDefinitions[key].values.map((value) => (
              <MenuItem key={value} value={value} data-testid={`setting-${key}-${value}`}>
                {t(`options.${key}.values.${value}`)}
              </MenuItem>
            ))}
          </TextField>
        ))}
      </Box>
      <Divider />
      <Typography variant="h6" component="h2">
        {t("integrations")}
      </Typography>
      <Box sx={grid}>
        {integrationSettings.map((key) => (
          <TextSetting
            key={key}
            settingKey={key}
            label={t(`options.${key}.label`)}
            value={settingValue(key)}
            onSave={(value) => change(key, value)}
          />
        ))}
      </Box>
    </Box>
  );
}
