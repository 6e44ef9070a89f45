import { type ContactView, Limits, type OtherOpenTicketData, type QueueRef } from "@charla/contracts";
import PersonAddIcon from "@mui/icons-material/PersonAddAlt1";
import Alert from "@mui/material/Alert";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialogActions } from "../../components/form/FormDialogActions";
import { ApiError } from "../../api/client";
import { toastError, validationIssues } from "../../api/errors";
import { useQueues, useWhatsapps } from "../../api/lookups";
import { type TicketView, useContactOptions, useCreateTicket } from "../../api/tickets";
import { useSessionUser } from "../../auth/context";
import { usePermission } from "../../auth/permissions";
import { useDebouncedValue } from "../../hooks/use-debounced-value";
import { formatPhoneNumber } from "../../lib/phone";
import { ContactAvatar } from "../contacts/ContactAvatar";
import { ContactModal } from "../contacts/ContactModal";
import { contactLabel } from "./ticket-format";

type Props = {
  open: boolean;
  onClose: () => void;
  /** The created ticket, or the caller's own ticket already open for the contact. */
  onOpenTicket: (uuid: string, ticket?: TicketView) => void;
  /** A contact chosen before opening (the contacts page's row action): shown selected, no search needed. */
  initialContact?: ContactView | null;
};

type Option = { kind: "contact"; contact: ContactView } | { kind: "add"; name: string };

const NONE = "";

/**
 * core §5 new ticket: a contact (searched from 3 characters, 500 ms), a queue (required unless the user
 * may work without one: Selecione un Area) and a connection. A contact already served elsewhere is
 * named in a notice; when it is the caller's own ticket, that one opens instead (core §8).
 */
export function NewTicketModal({ open, onClose, onOpenTicket, initialContact = null }: Props) {
  const { t } = useTranslation("tickets");
  const user = useSessionUser();
  const noQueueAllowed = usePermission("tickets.no-queue");
  const staff = user.super || user.profile !== "user";
  const allQueues = useQueues(open && staff);
  const whatsapps = useWhatsapps(open);
  const create = useCreateTicket();

  const [input, setInput] = useState("");
  const [contact, setContact] = useState<ContactView | null>(null);
  const [queueId, setQueueId] = useState<number | typeof NONE>(NONE);
  const [whatsappId, setWhatsappId] = useState<number | typeof NONE>(NONE);
  const [errors, setErrors] = useState<{ contact?: boolean; queue?: boolean }>({});
  const [notice, setNotice] = useState<OtherOpenTicketData | null>(null);
  const [adding, setAdding] = useState<string | null>(null);

  const search = useDebouncedValue(input.trim(), Limits.debounceMs);
  const typed = input.trim();
  const contacts = useContactOptions(contact && contactLabel(contact) === typed ? "" : search);

  const queues: QueueRef[] = useMemo(() => (staff ? (allQueues.data ?? []) : user.queues), [staff, allQueues.data, user.queues]);

  // Start clean each time (or with the caller's contact); a single queue or the user's own connection is chosen for them.
  useEffect(() => {
    if (!open) return;
    setInput(initialContact ? contactLabel(initialContact) : "");
    setContact(initialContact);
    setErrors({});
    setNotice(null);
    setQueueId(NONE);
    setWhatsappId(NONE);
  }, [open, initialContact]);

  useEffect(() => {
    if (open && queues.length === 1 && !noQueueAllowed) setQueueId(queues[0].id);
  }, [open, queues, noQueueAllowed]);

  useEffect(() => {
    if (!open || !whatsapps.data?.length) return;
    const own = whatsapps.data.find((w) => w.id === user.whatsappId);
    const fallback = own ?? whatsapps.data.find((w) => w.isDefault) ?? whatsapps.data[0];
    setWhatsappId((current) => (current === NONE ? fallback.id : current));
  }, [open, whatsapps.data, user.whatsappId]);

  const options: Option[] = useMemo(() => {
    if (typed.length < Limits.searchMin) return [];
    const found: Option[] = (contacts.data ?? []).map((c) => ({ kind: "contact", contact: c }));
    return [...found, { kind: "add", name: typed }];
  }, [contacts.data, typed]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = { contact: !contact, queue: queueId === NONE && !noQueueAllowed };
    setErrors(missing);
    if (!contact || missing.queue) return;
    setNotice(null);
    try {
      const ticket = await create.mutateAsync({
        contactId: contact.id,
        queueId: queueId === NONE ? null : queueId,
        whatsappId: whatsappId === NONE ? null : whatsappId,
        status: "open",
      });
      onClose();
      onOpenTicket(ticket.uuid, ticket);
    } catch (error) {
      if (error instanceof ApiError && error.code === "ERR_OTHER_OPEN_TICKET" && error.body?.data) {
        const other = error.body.data as unknown as OtherOpenTicketData;
        if (other.userId === user.id) {
          onClose();
          onOpenTicket(other.uuid);
        } else {
          setNotice(other);
        }
        return;
      }
      if (validationIssues(error).some((issue) => issue.path === "queueId")) {
        setErrors((current) => ({ ...current, queue: true }));
        return;
      }
      toastError(error);
    }
  };

  const busy = create.isPending;
  const noticeText = (() => {
    if (!notice) return "";
    const queue = notice.queueName;
    if (notice.userName) {
      return queue
        ? t("newTicket.otherUser", { user: notice.userName, queue })
        : t("newTicket.otherUserNoQueue", { user: notice.userName });
    }
    return queue ? t("newTicket.otherPending", { queue }) : t("newTicket.otherPendingNoQueue");
  })();

  return (
    <>
      <Dialog
        open={open}
        onClose={busy ? undefined : onClose}
        fullWidth
        maxWidth="xs"
        slotProps={{
          paper: { component: "form", noValidate: true, onSubmit: submit, "data-testid": "new-ticket-modal" } as object,
        }}
      >
        <DialogTitle>{t("newTicket.title")}</DialogTitle>
        <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 2.5, pt: 2.5 }}>
          <Box sx={{ display: "flex", gap: 1, alignItems: "flex-start" }}>
            <Autocomplete<Option, false, false, false>
              fullWidth
              options={options}
              value={contact ? { kind: "contact", contact } : null}
              inputValue={input}
              onInputChange={(_, value, reason) => {
                if (reason === "reset" && !value && contact) return;
                setInput(value);
              }}
              onChange={(_, option) => {
                if (option?.kind === "add") {
                  setAdding(option.name);
                  return;
                }
                setContact(option?.contact ?? null);
                setNotice(null);
                if (option) setErrors((current) => ({ ...current, contact: false }));
              }}
              filterOptions={(items) => items}
              isOptionEqualToValue={(a, b) =>
                a.kind === "contact" && b.kind === "contact" ? a.contact.id === b.contact.id : a.kind === b.kind
              }
              getOptionLabel={(option) => (option.kind === "contact" ? contactLabel(option.contact) : option.name)}
              getOptionKey={(option) => (option.kind === "contact" ? option.contact.id : "add")}
              loading={contacts.isFetching}
              noOptionsText={typed.length < Limits.searchMin ? t("newTicket.typeMore") : t("newTicket.noContacts")}
              loadingText={t("newTicket.searching")}
              renderOption={({ key, ...props }, option) => (
                <Box component="li" key={key} {...props} sx={{ display: "flex", gap: 1.25, alignItems: "center" }}>
                  {option.kind === "contact" ? (
                    <>
                      <ContactAvatar
                        id={option.contact.id}
                        name={contactLabel(option.contact)}
                        profilePicUrl={option.contact.profilePicUrl}
                        size={30}
                      />
                      <Box sx={{ minWidth: 0 }}>
                        <Typography noWrap variant="body2" sx={{ fontWeight: 500 }}>
                          {contactLabel(option.contact)}
                        </Typography>
                        <Typography noWrap variant="caption" sx={{ color: "text.secondary", display: "block" }}>
                          {formatPhoneNumber(option.contact.number)}
                        </Typography>
                      </Box>
                    </>
                  ) : (
                    <>
                      <PersonAddIcon fontSize="small" color="primary" />
                      <Typography variant="body2" sx={{ color: "primary.main" }} noWrap>
                        {t("newTicket.addNamed", { name: option.name })}
                      </Typography>
                    </>
                  )}
                </Box>
              )}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t("newTicket.contact")}
                  placeholder={t("newTicket.contactPlaceholder")}
                  autoFocus
                  required
                  error={!!errors.contact}
                  helperText={errors.contact ? t("common:validation.required") : undefined}
                  slotProps={{
                    ...params.slotProps,
                    htmlInput: { ...params.slotProps.htmlInput, "data-testid": "new-ticket-contact" },
                  }}
                />
              )}
            />
            <Tooltip title={t("newTicket.addContact")}>
              <IconButton
                onClick={() => setAdding(typed)}
                aria-label={t("newTicket.addContact")}
                data-testid="new-ticket-add-contact"
                sx={{ mt: 1 }}
              >
                <PersonAddIcon />
              </IconButton>
            </Tooltip>
          </Box>
          <TextField
            select
            fullWidth
            label={t("newTicket.queue")}
            required={!noQueueAllowed}
            value={queueId}
            onChange={(event) => {
              const value = event.target.value as unknown;
              setQueueId(value === NONE ? NONE : Number(value));
              setErrors((current) => ({ ...current, queue: false }));
            }}
            error={!!errors.queue}
            helperText={errors.queue ? t("common:validation.queueRequired") : undefined}
            slotProps={{
              inputLabel: { shrink: true },
              select: {
                displayEmpty: true,
                SelectDisplayProps: { "data-testid": "new-ticket-queue" } as object,
                renderValue: (value) => {
                  const queue = queues.find((q) => q.id === value);
                  if (!queue) {
                    return (
                      <Box component="span" sx={{ color: "text.secondary" }}>
                        {noQueueAllowed ? t("newTicket.noQueue") : t("newTicket.chooseQueue")}
                      </Box>
                    );
                  }
                  return (
                    <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 1 }}>
                      <Box component="span" sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: queue.color }} />
                      {queue.name}
                    </Box>
                  );
                },
              },
            }}
          >
            {noQueueAllowed && (
              <MenuItem value={NONE} data-testid="new-ticket-queue-none">
                <em>{t("newTicket.noQueue")}</em>
              </MenuItem>
            )}
            {queues.map((queue) => (
              <MenuItem key={queue.id} value={queue.id} data-testid={`new-ticket-queue-${queue.id}`}>
                <Box component="span" sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: queue.color, mr: 1.25 }} />
                {queue.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            fullWidth
            label={t("newTicket.connection")}
            value={whatsapps.data?.some((w) => w.id === whatsappId) ? whatsappId : NONE}
            onChange={(event) => {
              const value = event.target.value as unknown;
              setWhatsappId(value === NONE ? NONE : Number(value));
            }}
            slotProps={{
              inputLabel: { shrink: true },
              select: { displayEmpty: true, SelectDisplayProps: { "data-testid": "new-ticket-whatsapp" } as object },
            }}
          >
            <MenuItem value={NONE}>
              <em>{t("newTicket.defaultConnection")}</em>
            </MenuItem>
            {(whatsapps.data ?? []).map((w) => (
              <MenuItem key={w.id} value={w.id}>
                {w.name}
              </MenuItem>
            ))}
          </TextField>
          {notice && (
            <Alert severity="warning" data-testid="new-ticket-notice">
              {noticeText}
            </Alert>
          )}
        </DialogContent>
        <FormDialogActions
          onCancel={onClose}
          busy={busy}
          submitLabel={t("newTicket.save")}
          cancelTestId="new-ticket-cancel"
          submitTestId="new-ticket-save"
        />
      </Dialog>
      {adding !== null && (
        <ContactModal
          open
          contactId={null}
          initialName={adding}
          onClose={() => setAdding(null)}
          onSaved={(saved) => {
            setContact(saved);
            setInput(contactLabel(saved));
            setErrors((current) => ({ ...current, contact: false }));
          }}
        />
      )}
    </>
  );
}
