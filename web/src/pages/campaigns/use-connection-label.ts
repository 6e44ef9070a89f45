import type { CampaignView } from "@charla/contracts";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useWhatsapps } from "../../api/lookups";

/**
 * The connection a campaign sends through, by name: its own, or the company's default one named
 * (issue 26: "Conexión predeterminada" alone left the user guessing which connection that was).
 */
export function useConnectionLabel(): (campaign: Pick<CampaignView, "whatsapp">) => string {
  const { t } = useTranslation("campaigns");
  const whatsapps = useWhatsapps();
  const fallback = whatsapps.data?.find((wa) => wa.isDefault)?.name;
  return useCallback(
    (campaign) =>
      campaign.whatsapp?.name ?? (fallback ? t("defaultConnectionNamed", { name: fallback }) : t("defaultConnection")),
    [fallback, t],
  );
}
