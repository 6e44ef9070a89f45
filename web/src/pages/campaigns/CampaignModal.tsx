import { CampaignForm, type CampaignView } from "@charla/contracts";
import Alert from "@mui/material/Alert";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { campaignCollection, useDeleteCampaignMedia, useUploadCampaignMedia } from "../../api/campaigns";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { toast } from "../../lib/toast";
import { CampaignFields } from "./CampaignFields";
import { CampaignMediaField } from "./CampaignMediaField";
import { type CampaignValues, campaignValuesOf } from "./campaign-form";
import { type DialogMode, dialogModeOf } from "./campaign-rules";
import { MessageVariants } from "./MessageVariants";

type Props = { campaignId: number | null; onClose: () => void };

/** The attachment as the dialog holds it until saved: a new file, or the stored one to drop. */
function useMediaChoice(stored: CampaignView | undefined) {
  const [file, setFile] = useState<File | null>(null);
  const [drop, setDrop] = useState(false);
  const storedName = drop ? null : (stored?.mediaName ?? null);
  return {
    file,
    /** Something to send to the server on save. */
    changed: file !== null || (drop && !!stored?.mediaName),
    name: file?.name ?? storedName,
    pick: (next: File) => setFile(next),
    remove: () => (file ? setFile(null) : setDrop(true)),
  };
}

/**
 * secondary §2 Campaign dialog. Editable per secondary §4 (see dialogModeOf): a cancelled campaign
 * keeps only its texts open, a started or finished one only shows itself. The server takes a file
 * only while the campaign is editable, so the file goes first: an existing campaign gets it before
 * its new values (which may schedule it within the hour), a new one is saved as a draft, gets it,
 * and then takes its schedule.
 */
export function CampaignModal({ campaignId, onClose }: Props) {
  const { t } = useTranslation("campaigns");
  // a new campaign saved whose file then failed stays saved: saving again updates it
  const [savedId, setSavedId] = useState(campaignId);
  const existing = campaignCollection.useRecord(campaignId);
  const save = campaignCollection.useSave();
  const upload = useUploadCampaignMedia();
  const removeMedia = useDeleteCampaignMedia();
  const media = useMediaChoice(existing.data);
  const defaults = useMemo(() => campaignValuesOf(), []);
  const loaded = useMemo(() => (existing.data ? campaignValuesOf(existing.data) : null), [existing.data]);
  const mode: DialogMode = campaignId === null ? "full" : existing.data ? dialogModeOf(existing.data) : "readOnly";

  const attachMedia = async (values: CampaignValues): Promise<number> => {
    let id = savedId;
    if (id === null) {
      id = (await save.mutateAsync({ id: null, values: { ...values, scheduledAt: "" } })).id;
      setSavedId(id);
    }
    if (media.file) await upload.mutateAsync({ id, file: media.file });
    else await removeMedia.mutateAsync(id);
    return id;
  };

  const submit = async (values: CampaignValues) => {
    const id = mode === "full" && media.changed ? await attachMedia(values) : savedId;
    await save.mutateAsync({ id, values });
    toast.success(t("toasts.saved"));
    onClose();
  };

  const title = campaignId === null ? t("modal.titleAdd") : mode === "readOnly" ? t("modal.titleView") : t("modal.titleEdit");
  return (
    <FormDialog<CampaignValues>
      open
      onClose={onClose}
      title={title}
      testId="campaign-modal"
      submitLabel={t(campaignId === null ? "common:actions.add" : "common:actions.save")}
      readOnly={mode === "readOnly"}
      schema={CampaignForm}
      defaultValues={defaults}
      loaded={loaded}
      loading={campaignId !== null && existing.isLoading}
      loadError={existing.error}
      onSubmit={submit}
      maxWidth="md"
    >
      {(form) => (
        <>
          {mode !== "full" && (
            <Alert severity="info" data-testid="campaign-mode-note" data-mode={mode}>
              {t(mode === "messages" ? "modal.onlyMessages" : "modal.readOnly")}
            </Alert>
          )}
          <CampaignFields control={form.control} disabled={mode !== "full"} />
          <CampaignMediaField name={media.name} onPick={media.pick} onRemove={media.remove} disabled={mode !== "full"} />
          <MessageVariants form={form} disabled={mode === "readOnly"} />
        </>
      )}
    </FormDialog>
  );
}
