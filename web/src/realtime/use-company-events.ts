import { SettingDefinitions, isSettingKey } from "@charla/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { toast } from "../lib/toast";
import { useConnectionEvents } from "../api/connections";
import { contactCollection } from "../api/contacts";
import { putSettingInCache, settingKeys } from "../api/settings";
import { userCollection } from "../api/users";
import { useAuth } from "../auth/context";
import { sessionPatchOf } from "../auth/session";
import { useSocketEvent } from "./context";

const OTHER_SESSION_DELAY_MS = 1000;

function isSecretSetting(key: string): boolean {
  return isSettingKey(key) && "secret" in SettingDefinitions[key];
}

/** The company-wide channels: users, contacts, connections, settings, hours and the single-session rule. */
export function useCompanyEvents(): void {
  const { user, updateUser } = useAuth();
  const queryClient = useQueryClient();
  const { t } = useTranslation("layout");
  const meId = user?.id ?? null;

  // connections and their sessions: the page, the pickers and the menu badge read the same list
  useConnectionEvents();

  // users: the page and the modal; one's own changes reach the session too
  userCollection.useLiveEvents((event) => {
    if (event.item && event.item.id === meId) updateUser(sessionPatchOf(event.item));
  });

  contactCollection.useLiveEvents();

  useSocketEvent("settings", (event) => {
    if (event.action !== "update") return;
    // Secret values are broadcast blank; those who may read them fetch the list again instead.
    if (isSecretSetting(event.setting.key)) void queryClient.invalidateQueries({ queryKey: settingKeys.all });
    else putSettingInCache(queryClient, event.setting);
  });

  // Settings → Horarios saved (here, in another tab, by another admin): the zone every time is shown in
  useSocketEvent("company", (event) => {
    if (event.action !== "update") return;
    if (user && user.company.timeZone !== event.schedules.timeZone) {
      updateUser({ company: { ...user.company, timeZone: event.schedules.timeZone } });
    }
  });

  // core §4: a login elsewhere ends this session after a notice.
  useSocketEvent("auth", (event) => {
    if (event.action !== "update" || event.user.id !== meId) return;
    // the 1 s runs from when the notice is on screen: the toast library may still be on its way
    void toast.error(t("session.otherDevice")).then(() =>
      setTimeout(() => {
        localStorage.clear();
        window.location.reload();
      }, OTHER_SESSION_DELAY_MS),
    );
  });
}
