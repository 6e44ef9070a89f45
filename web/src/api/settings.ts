import type { SettingKey, SettingView } from "@charla/contracts";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./client";

export const settingKeys = { all: ["settings"] as const };

export function useSettings() {
  return useQuery({
    queryKey: settingKeys.all,
    queryFn: ({ signal }) => api<SettingView[]>("/settings", { signal }),
  });
}

export function putSettingInCache(client: QueryClient, setting: SettingView): void {
  client.setQueryData<SettingView[]>(settingKeys.all, (list) => {
    if (!list) return list;
    const present = list.some((s) => s.key === setting.key);
    return present ? list.map((s) => (s.key === setting.key ? setting : s)) : [...list, setting];
  });
}

export function useUpdateSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: SettingKey; value: string }) =>
      api<SettingView>(`/settings/${key}`, { method: "PUT", body: { value } }),
    onSuccess: (setting) => putSettingInCache(client, setting),
  });
}
