import type {
  CampaignForm,
  CampaignReport,
  CampaignSettings,
  CampaignSettingsForm,
  CampaignView,
  FileListsPage,
} from "@charla/contracts";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./client";
import { defineCollection } from "./collection";

export type { CampaignReport, CampaignSettings, CampaignView };

/**
 * secondary §7 Campaigns: newest first, 20 a page, searched by name; `company-{id}-campaign` keeps the
 * list, an open dialog and the report live (the sender announces every batch it sends).
 */
export const campaignCollection = defineCollection<CampaignView, CampaignForm>({
  name: "campaigns",
  path: "/campaigns",
  pageField: "records",
  matches: (campaign, search) => campaign.name.toLowerCase().includes(search.trim().toLowerCase()),
  order: (a, b) => b.createdAt.localeCompare(a.createdAt) || a.id - b.id,
  live: { channel: "campaign", item: "record", idField: "id" },
});

export const campaignReportKey = (id: number) => ["campaigns", "report", id] as const;
const settingsKey = ["campaign-settings"] as const;

/** A campaign's answer (cancel, restart, media) into its row, its detail and its open report. */
function putCampaign(client: QueryClient, campaign: CampaignView): void {
  campaignCollection.upsert(client, campaign);
  client.setQueryData<CampaignReport>(campaignReportKey(campaign.id), (report) => report && { ...report, campaign });
}

/** POST /campaigns/{id}/cancel or /restart (secondary §4 transitions). */
export function useCampaignTransition() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: "cancel" | "restart" }) =>
      api<CampaignView>(`/campaigns/${id}/${action}`, { method: "POST" }),
    onSuccess: (campaign) => putCampaign(client, campaign),
  });
}

export function useUploadCampaignMedia() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file }: { id: number; file: File }) => {
      const form = new FormData();
      form.append("file", file);
      return api<CampaignView>(`/campaigns/${id}/media-upload`, { method: "POST", body: form });
    },
    onSuccess: (campaign) => putCampaign(client, campaign),
  });
}

export function useDeleteCampaignMedia() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<CampaignView>(`/campaigns/${id}/media-upload`, { method: "DELETE" }),
    onSuccess: (campaign) => putCampaign(client, campaign),
  });
}

/** GET /campaigns/{id}/report: the counts and the campaign they belong to. */
export function useCampaignReport(id: number) {
  return useQuery({
    queryKey: campaignReportKey(id),
    queryFn: ({ signal }) => api<CampaignReport>(`/campaigns/${id}/report`, { signal }),
  });
}

/** GET /campaign-settings: the intervals and the custom variables (the dialog's chips read them too). */
export function useCampaignSettings(enabled = true) {
  return useQuery({
    queryKey: settingsKey,
    queryFn: ({ signal }) => api<CampaignSettings>("/campaign-settings", { signal }),
    enabled,
  });
}

export function useSaveCampaignSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: CampaignSettingsForm) => api<CampaignSettings>("/campaign-settings", { method: "POST", body: values }),
    onSuccess: (settings) => client.setQueryData(settingsKey, settings),
  });
}

/** Enough for any company's file lists; the picker is a plain select, not a searched list. */
const FILE_LIST_PAGES = 10;

/** GET /files page by page: the file lists a campaign may send first (id and name). */
export function useFileListOptions(enabled = true) {
  return useQuery({
    queryKey: ["file-lists", "options"],
    queryFn: async ({ signal }) => {
      const lists: { id: number; name: string }[] = [];
      for (let pageNumber = 1; pageNumber <= FILE_LIST_PAGES; pageNumber++) {
        const page = await api<FileListsPage>("/files", { query: { pageNumber }, signal });
        lists.push(...page.files.map(({ id, name }) => ({ id, name })));
        if (!page.hasMore) break;
      }
      return lists;
    },
    enabled,
    // read again each time the dialog opens a few seconds apart: a list made meanwhile shows at once
    staleTime: 5_000,
  });
}
