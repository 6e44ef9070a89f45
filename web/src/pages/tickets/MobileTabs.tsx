import ChatIcon from "@mui/icons-material/ChatOutlined";
import ListIcon from "@mui/icons-material/FormatListBulleted";
import BottomNavigation from "@mui/material/BottomNavigation";
import BottomNavigationAction from "@mui/material/BottomNavigationAction";
import { useTranslation } from "react-i18next";

export type MobileTab = "list" | "chat";

type Props = {
  value: MobileTab;
  onChange: (tab: MobileTab) => void;
  /** No ticket selected: the chat tab is off. */
  chatDisabled: boolean;
};

/** The bottom tabs under 900 px (TicketsPage): their own chunk, wide screens never load it. */
export default function MobileTabs({ value, onChange, chatDisabled }: Props) {
  const { t } = useTranslation("tickets");
  return (
    <BottomNavigation
      showLabels
      value={value}
      onChange={(_, tab: MobileTab) => onChange(tab)}
      sx={{ height: 56, bgcolor: "background.paper" }}
    >
      <BottomNavigationAction
        value="chat"
        label={t("mobile.chat")}
        icon={<ChatIcon />}
        disabled={chatDisabled}
        sx={{ "&.Mui-disabled": { opacity: 0.45 } }}
        data-testid="tickets-bottom-tab-chat"
      />
      <BottomNavigationAction value="list" label={t("mobile.list")} icon={<ListIcon />} data-testid="tickets-bottom-tab-list" />
    </BottomNavigation>
  );
}
