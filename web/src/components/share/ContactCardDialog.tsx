import type { ContactCard } from "@charla/contracts";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../form/FormTextField";
import { FormDialog } from "../list-kit/FormDialog";
import { ContactCardFormSchema, type ContactCardValues } from "./share-form";

type Props = {
  open: boolean;
  onClose: () => void;
  /** Resolves true when it went out (the dialog then closes and forgets what was typed). */
  onSend: (card: ContactCard) => Promise<boolean>;
  /** `{testId}-dialog`, `{testId}-name`, … for the browser tests of each screen using it. */
  testId: string;
};

const empty: ContactCardValues = { name: "", number: "" };

/** Sharing a contact card: a name and a phone number. */
export function ContactCardDialog({ open, onClose, onSend, testId }: Props) {
  const { t } = useTranslation();
  return (
    <FormDialog<ContactCardValues>
      open={open}
      onClose={onClose}
      title={t("share.contact.title")}
      testId={`${testId}-dialog`}
      submitLabel={t("actions.send")}
      submitTestId={`${testId}-send`}
      schema={ContactCardFormSchema}
      defaultValues={empty}
      maxWidth="xs"
      onSubmit={async (values, form) => {
        if (!(await onSend(values as ContactCard))) return;
        form.reset(empty);
        onClose();
      }}
    >
      {(form) => (
        <>
          <FormTextField
            control={form.control}
            name="name"
            label={t("share.contact.name")}
            autoFocus
            autoComplete="off"
            fullWidth
            testId={`${testId}-name`}
          />
          <FormTextField
            control={form.control}
            name="number"
            label={t("share.contact.number")}
            type="tel"
            autoComplete="off"
            fullWidth
            testId={`${testId}-number`}
          />
        </>
      )}
    </FormDialog>
  );
}
