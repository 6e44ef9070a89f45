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
import { integrationSettings, platformSettings, selectSettings } from "./options-config";

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
  const platform = platformSettings.filter((key) => values.has(key));

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 3 }}>
      <Box sx={grid}>
        {selectSettings.map((key) => (
          <SettingSelect key={key} settingKey={key} value={settingValue(key)} onChange={change} />
        ))}
      </Box>
      {platform.length > 0 && (
        <>
          <Divider />
          <Typography variant="h6" component="h2">
            {t("platform")}
          </Typography>
          <Box sx={grid}>
            {platform.map((key) => (
              <SettingSelect key={key} settingKey={key} value={settingValue(key)} onChange={change} />
            ))}
          </Box>
        </>
      )}
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

function SettingSelect({
  settingKey: key,
  value,
  onChange,
}: {
  settingKey: SettingKey;
  value: string;
  onChange: (key: SettingKey, value: string) => Promise<void>;
}) {
  const { t } = useTranslation("settings");
  const allowed = (SettingDefinitions[key] as { values?: readonly string[] }).values ?? [];
  return (
    <TextField
      select
      label={t(`options.${key}.label`)}
      value={value}
      onChange={(event) => void onChange(key, event.target.value)}
      fullWidth
      slotProps={{ select: { SelectDisplayProps: { "data-testid": `setting-${key}` } as object } }}
    >
      {allowed.map((option) => (
        <MenuItem key={option} value={option} data-testid={`setting-${key}-${option}`}>
          {t(`options.${key}.values.${option}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}
