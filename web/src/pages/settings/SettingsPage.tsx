import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSettings } from "../../api/settings";
import { canAccess, useSubject } from "../../auth/permissions";
import { PageContainer } from "../../components/PageContainer";
import { settingsTabs } from "./settings-tabs";

export default function SettingsPage() {
  const { t } = useTranslation("settings");
  const subject = useSubject();
  const settings = useSettings();
  const values = useMemo(
    () => Object.fromEntries((settings.data ?? []).map((setting) => [setting.key, setting.value])),
    [settings.data],
  );
  const tabs = settingsTabs.filter((tab) => canAccess(subject, tab.access) && (tab.when?.(values) ?? true));
  const [selected, setSelected] = useState<string | null>(null);
  const active = tabs.find((tab) => tab.key === selected) ?? tabs[0];

  return (
    <PageContainer title={t("title")}>
      {active ? (
        <Paper variant="outlined">
          <Tabs
            value={active.key}
            onChange={(_, key: string) => setSelected(key)}
            variant="scrollable"
            scrollButtons="auto"
            sx={{ borderBottom: 1, borderColor: "divider", px: 1 }}
          >
            {tabs.map((tab) => (
              <Tab key={tab.key} value={tab.key} label={t(tab.labelKey)} data-testid={`settings-tab-${tab.key}`} />
            ))}
          </Tabs>
          <Box sx={{ p: { xs: 2, sm: 3 } }}>{active.element}</Box>
        </Paper>
      ) : (
        <Typography sx={{ color: "text.secondary" }}>{t("noTabs")}</Typography>
      )}
    </PageContainer>
  );
}
