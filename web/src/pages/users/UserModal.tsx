import { Limits, OwnUserUpdateForm, UserCreateForm, UserUpdateForm } from "@charla/contracts";
import { useMemo, useState } from "react";
import type { UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { ApiError } from "../../api/client";
import { useQueues, useWhatsapps } from "../../api/lookups";
import { useProtectedImage } from "../../api/media";
import { profileImagePath, useUploadProfileImage, userCollection } from "../../api/users";
import { useAuth, useSessionUser } from "../../auth/context";
import { usePermission } from "../../auth/permissions";
import { sessionPatchOf } from "../../auth/session";
import { AvatarPicker } from "../../components/AvatarPicker";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { useObjectUrl } from "../../hooks/use-object-url";
import { UserFormFields } from "./UserFormFields";
import { formValuesOf, payloadOf, type UserFormRights, type UserFormValues } from "./user-form";

type Props = { open: boolean; userId: number | null; onClose: () => void };

const JPEG = "image/jpeg";

/** core §2 User modal: create or edit a user; also the "Perfil" entry of the top bar. */
export function UserModal({ open, userId, onClose }: Props) {
  const { t } = useTranslation("users");
  const me = useSessionUser();
  const { updateUser } = useAuth();
  const rights: UserFormRights = {
    profile: usePermission("user-modal:editProfile"),
    queues: usePermission("user-modal:editQueues"),
    super: usePermission("user-modal:editSuper"),
  };
  // A created user keeps the dialog open if the picture upload fails; the retry must edit, not create again.
  const [savedId, setSavedId] = useState(userId);
  const isNew = savedId === null;
  const existing = userCollection.useRecord(savedId);
  const queues = useQueues(open && rights.queues);
  const whatsapps = useWhatsapps(open && rights.queues);
  const save = userCollection.useSave();
  const upload = useUploadProfileImage();
  const [photo, setPhoto] = useState<File | null>(null);
  const preview = useObjectUrl(photo);
  const current = useProtectedImage(
    existing.data?.profileImage && savedId !== null ? profileImagePath(savedId) : null,
    existing.data?.profileImage,
  );

  // Create and edit validate with their own contract schema (password required only on create;
  // editing oneself, a new password needs the current one).
  const isSelf = savedId !== null && savedId === me.id;
  const schema = isNew ? UserCreateForm : isSelf ? OwnUserUpdateForm : UserUpdateForm;
  const defaults = useMemo(() => formValuesOf(), []);
  const loaded = useMemo(() => (existing.data ? formValuesOf(existing.data) : null), [existing.data]);

  // core §5: the picture must be jpeg; refused here too so a wrong file never leaves the browser.
  const choosePhoto = (file: File) => {
    if (file.type !== JPEG) toast.error(t("errors:ERR_INVALID_FILE_TYPE"));
    else if (file.size > Limits.profilePictureMaxBytes) toast.error(t("errors:ERR_FILE_TOO_LARGE"));
    else setPhoto(file);
  };

  const submit = async (values: UserFormValues, form: UseFormReturn<UserFormValues>) => {
    try {
      let saved = await save.mutateAsync({ id: savedId, values: payloadOf(values, rights) });
      setSavedId(saved.id);
      if (photo) {
        saved = await upload.mutateAsync({ id: saved.id, file: photo });
        setPhoto(null);
      }
      if (saved.id === me.id) updateUser(sessionPatchOf(saved));
      toast.success(t("toasts.saved"));
      onClose();
    } catch (error) {
      if (!(error instanceof ApiError && error.code === "ERR_WRONG_PASSWORD")) throw error;
      form.setError("currentPassword", { type: "server", message: t("errors:ERR_WRONG_PASSWORD") });
    }
  };

  return (
    <FormDialog<UserFormValues>
      open={open}
      onClose={onClose}
      title={t(isNew ? "modal.titleAdd" : "modal.titleEdit")}
      testId="user-modal"
      submitLabel={t(isNew ? "common:actions.add" : "common:actions.save")}
      submitTestId="user-save"
      cancelTestId="user-cancel"
      schema={schema}
      defaultValues={defaults}
      loaded={loaded}
      loadError={existing.error}
      loading={savedId !== null && existing.isLoading}
      onSubmit={submit}
    >
      {(form) => (
        <>
          <AvatarPicker
            src={preview ?? current.url}
            alt={existing.data?.name ?? ""}
            buttonLabel={t("modal.changePhoto")}
            hint={t("modal.jpegOnly")}
            accept={JPEG}
            disabled={form.formState.isSubmitting}
            onFile={choosePhoto}
            testId="user-photo-input"
          />
          <UserFormFields
            control={form.control}
            rights={rights}
            isNew={isNew}
            isSelf={isSelf}
            queues={queues.data ?? []}
            whatsapps={whatsapps.data ?? []}
          />
        </>
      )}
    </FormDialog>
  );
}
