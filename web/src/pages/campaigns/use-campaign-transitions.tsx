import type { CampaignView } from "@charla/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useCampaignTransition } from "../../api/campaigns";
import { toastError } from "../../api/errors";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { toast } from "../../lib/toast";

type Action = "cancel" | "restart";

/**
 * secondary §4 cancel and restart from the list. Cancelling stops the sends at once, so it is asked
 * first; restarting goes on where it stopped (nobody gets the message twice) and runs at once. A
 * refusal shows the server's message in an error toast (secondary §8).
 */
export function useCampaignTransitions() {
  const { t } = useTranslation("campaigns");
  const transition = useCampaignTransition();
  // the dialog keeps its campaign while it closes, so its title does not change on the way out
  const [cancelling, setCancelling] = useState<CampaignView | null>(null);
  const [asking, setAsking] = useState(false);

  const run = async (campaign: CampaignView, action: Action) => {
    try {
      await transition.mutateAsync({ id: campaign.id, action });
      toast.success(t(action === "cancel" ? "toasts.cancelled" : "toasts.restarted"));
    } catch (error) {
      toastError(error);
    }
  };

  const dialog = (
    <ConfirmDialog
      open={asking}
      title={t("confirmCancel.title", { name: cancelling?.name ?? "" })}
      confirmLabel={t("actions.cancelCampaign")}
      busy={transition.isPending}
      onConfirm={() => {
        if (!cancelling) return;
        void run(cancelling, "cancel").finally(() => setAsking(false));
      }}
      onClose={() => setAsking(false)}
    >
      {t("confirmCancel.message")}
    </ConfirmDialog>
  );

  return {
    cancel: (campaign: CampaignView) => {
      setCancelling(campaign);
      setAsking(true);
    },
    restart: (campaign: CampaignView) => void run(campaign, "restart"),
    busy: transition.isPending,
    dialog,
  };
}
