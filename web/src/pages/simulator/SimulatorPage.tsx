import { Ack, Limits, normalizeNumber, type SharedLocation, SimulatorInboundForm } from "@charla/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import PhoneIcon from "@mui/icons-material/PhoneAndroidOutlined";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { toastError } from "../../api/errors";
import {
  simulatorKeys,
  useMarkThreadRead,
  useSendInbound,
  useSimulatorConnections,
  useSimulatorThread,
} from "../../api/simulator";
import { PageContainer } from "../../components/PageContainer";
import { ContactCardDialog } from "../../components/share/ContactCardDialog";
import { LocationDialog } from "../../components/share/LocationDialog";
import { useDebouncedValue } from "../../hooks/use-debounced-value";
import { usePageVisible } from "../../hooks/use-page-visible";
import { formatPhoneNumber } from "../../lib/phone";
import { useSocketEvent } from "../../realtime/context";
import { Composer } from "./Composer";
import { CustomerPanel } from "./CustomerPanel";
import { PhoneThread, type ThreadItem } from "./PhoneThread";
import {
  type CustomerMessageOutput,
  CustomerMessageSchema,
  type CustomerMessageValues,
  emptyCustomerMessage,
  MAX_FILE_BYTES,
  mediaTypeOfMime,
  readBase64,
} from "./simulator-form";
import { forgetCustomer, readRecent, rememberCustomer, type SentItem, threadKey } from "./simulator-storage";
import { useLastCustomer } from "./use-last-customer";

const numberField = SimulatorInboundForm.shape.number;

/** Digits of a number the API would take, else "" (no conversation to show yet). */
function digitsOf(value: string): string {
  return numberField.safeParse(value).success ? normalizeNumber(value) : "";
}

let sequence = 0;
const nextKey = () => `${Date.now().toString(36)}-${(sequence++).toString(36)}`;

type Extra = Omit<SimulatorInboundForm, "number" | "name">;
type Shown = Omit<SentItem, "key" | "at" | "status">;

/**
 * Issue #3 simulator: an admin plays customers on the built-in phone connection. What the customer
 * sends enters through the same path a real phone's does; what agents answer is listed with its ticks.
 * The conversation is the server's (issue #8), so every tab shows all of it; what the page shows of
 * the agents' messages it reads, as a phone does, and their ticks turn blue.
 */
export default function SimulatorPage() {
  const { t } = useTranslation("simulator");
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up("md"));
  const queryClient = useQueryClient();

  const connections = useSimulatorConnections();
  const list = useMemo(() => connections.data ?? [], [connections.data]);
  const [chosenId, setChosenId] = useState<number | null>(null);
  // The first simulator connection until the admin picks another (or the chosen one disappears).
  const whatsappId = list.some((wa) => wa.id === chosenId) ? chosenId : (list[0]?.id ?? null);
  const connection = list.find((wa) => wa.id === whatsappId) ?? null;

  const form = useForm<CustomerMessageValues, unknown, CustomerMessageOutput>({
    resolver: zodResolver(CustomerMessageSchema),
    defaultValues: emptyCustomerMessage,
  });
  const [number = "", name = "", body = ""] = useWatch({ control: form.control, name: ["number", "name", "body"] });
  const digits = useDebouncedValue(digitsOf(number), Limits.debounceMs);

  const [recent, setRecent] = useState(readRecent);
  // What this tab is sending (or failed to send), per conversation, until the server's history has it.
  const [threads, setThreads] = useState<Record<string, SentItem[]>>({});
  const [attachment, setAttachment] = useState<File | null>(null);
  const [dialog, setDialog] = useState<"location" | "vcard" | null>(null);

  const thread = useSimulatorThread(whatsappId, digits);
  const send = useSendInbound();
  const markRead = useMarkThreadRead();
  const visible = usePageVisible();

  // Live: any message event of the company may be an agent's answer; the 3 s poll covers the rest.
  useSocketEvent("appMessage", () => {
    void queryClient.invalidateQueries({ queryKey: simulatorKeys.threads });
  });

  useLastCustomer(whatsappId, digits, name, form);

  useEffect(() => {
    if (connections.isError) toastError(connections.error);
  }, [connections.isError, connections.error]);
  useEffect(() => {
    if (thread.isError) toastError(thread.error);
  }, [thread.isError, thread.error]);

  const currentThread = whatsappId !== null && digits ? threadKey(whatsappId, digits) : null;
  const items = useMemo<ThreadItem[]>(() => {
    const sending = currentThread ? (threads[currentThread] ?? []) : [];
    const merged: ThreadItem[] = [
      ...(currentThread ? (thread.data ?? []) : []).map((item) => ({ kind: "server" as const, at: item.createdAt, item })),
      ...sending.map((item) => ({ kind: "local" as const, at: item.at, item })),
    ];
    // a stable sort: what this tab is still sending stays after what the server already has
    return merged.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  }, [currentThread, threads, thread.data]);

  // The phone reads what it shows: agents' messages that reached it and are not read yet get a read
  // receipt while this page is in front. Asked once per set of messages; new ones ask again.
  const unread = (thread.data ?? [])
    .filter((m) => m.side === "agent" && !m.isDeleted && m.ack >= Ack.pending && m.ack < Ack.read)
    .map((m) => m.id)
    .join(",");
  const askedRead = useRef("");
  const markThreadRead = markRead.mutate;
  useEffect(() => {
    if (whatsappId === null || !digits || !unread || !visible) return;
    const asked = `${whatsappId}:${digits}:${unread}`;
    if (askedRead.current === asked) return;
    askedRead.current = asked;
    markThreadRead(
      { whatsappId, number: digits },
      {
        onSuccess: () => void queryClient.invalidateQueries({ queryKey: simulatorKeys.thread(whatsappId, digits) }),
        onError: (error) => toastError(error),
      },
    );
  }, [whatsappId, digits, unread, visible, markThreadRead, queryClient]);

  const updateThread = (key: string, change: (items: SentItem[]) => SentItem[]) =>
    setThreads((current) => ({ ...current, [key]: change(current[key] ?? []) }));

  /** Sends one customer message with the current number and name; true when the API took it. */
  const deliver = async (extra: Extra, shown: Shown): Promise<boolean> => {
    if (whatsappId === null) return false;
    if (!(await form.trigger(["number", "name"]))) return false;
    const customer = { number: form.getValues("number").trim(), name: (form.getValues("name") ?? "").trim() };
    const customerDigits = normalizeNumber(customer.number);
    const key = threadKey(whatsappId, customerDigits);
    const id = nextKey();
    updateThread(key, (items) => [...items, { ...shown, key: id, at: new Date().toISOString(), status: "sending" }]);
    const setStatus = (status: SentItem["status"]) =>
      updateThread(key, (items) => items.map((item) => (item.key === id ? { ...item, status } : item)));
    try {
      await send.mutateAsync({
        whatsappId,
        message: { number: customer.number, name: customer.name || undefined, ...extra },
      });
      setStatus("sent");
      setRecent(rememberCustomer(customer));
      // the server's history now has it: this tab's copy gives way once the history is read again
      await queryClient.refetchQueries({ queryKey: simulatorKeys.thread(whatsappId, customerDigits) }).catch(() => undefined);
      updateThread(key, (items) => items.filter((item) => item.key !== id));
      return true;
    } catch (error) {
      setStatus("failed");
      toastError(error);
      return false;
    }
  };

  const sendFile = async (file: File, caption: string): Promise<boolean> => {
    let mediaBase64: string;
    try {
      mediaBase64 = await readBase64(file);
    } catch (error) {
      toastError(error, t("composer.fileUnreadable"));
      return false;
    }
    const mediaType = mediaTypeOfMime(file.type);
    return deliver(
      { body: caption, mediaType, mediaBase64, fileName: file.name, mimetype: file.type || "application/octet-stream" },
      { kind: mediaType, body: caption, fileName: file.name },
    );
  };

  const submit = form.handleSubmit(async (values) => {
    const text = values.body ?? "";
    const file = attachment;
    if (!file && text.trim() === "") return;
    // Cleared at once, like a phone; a failed message stays in the thread marked as such.
    form.setValue("body", "");
    if (file) {
      setAttachment(null);
      await sendFile(file, text);
    } else {
      await deliver({ body: text }, { kind: "chat", body: text });
    }
    form.setFocus("body");
  });

  const chooseFile = (file: File) => {
    if (file.size > MAX_FILE_BYTES) {
      const text = t("composer.fileTooBig", { max: MAX_FILE_BYTES / (1024 * 1024) });
      toast.error(text, { toastId: text });
      return;
    }
    setAttachment(file);
  };

  /** The dialogs only open for a customer the API would take. */
  const openDialog = async (which: "location" | "vcard") => {
    if (await form.trigger(["number", "name"])) setDialog(which);
  };

  const sendLocation = (location: SharedLocation) => deliver({ location }, { kind: "location", body: "", location });

  const sendVcard = (vcard: { name: string; number: string }) => deliver({ vcard }, { kind: "vcard", body: "", vcard });

  const noConnection = connections.isSuccess && list.length === 0;
  const shownNumber = digits ? formatPhoneNumber(digits) : "";
  const title = digits ? name.trim() || shownNumber : null;
  const emptyText = !digits ? t("thread.pickNumber") : t("thread.empty");

  return (
    <PageContainer title={t("title")} fill={wide}>
      <Alert severity="warning" icon={<PhoneIcon />} data-testid="simulator-banner" sx={{ alignItems: "center" }}>
        <AlertTitle sx={{ mb: 0.25 }}>{t("banner")}</AlertTitle>
        {t("bannerHelp")}
      </Alert>
      {noConnection && (
        <Alert severity="info" data-testid="simulator-none">
          {t("noConnections")}
        </Alert>
      )}
      <Box
        sx={{
          display: "grid",
          gap: 2,
          gridTemplateColumns: { xs: "minmax(0, 1fr)", md: "minmax(280px, 340px) minmax(0, 1fr)" },
          alignItems: "start",
          flex: { md: 1 },
          // on short wide screens the page scrolls rather than squeezing the phone
          minHeight: { md: 460 },
          gridTemplateRows: { md: "minmax(0, 1fr)" },
        }}
      >
        <CustomerPanel
          connections={list}
          whatsappId={whatsappId}
          onWhatsappChange={setChosenId}
          control={form.control}
          setValue={form.setValue}
          recent={recent}
          onForget={(forgotten) => setRecent(forgetCustomer(forgotten))}
        />
        <Box sx={{ height: { md: "100%" }, minHeight: 0, maxWidth: { md: 720 }, width: "100%" }}>
          <PhoneThread
            title={title}
            subtitle={title && title !== shownNumber ? shownNumber : t("thread.customerSide")}
            connectionName={connection?.name ?? ""}
            items={items}
            emptyText={emptyText}
            composer={
              <Composer
                control={form.control}
                canSend={body.trim() !== "" || attachment !== null}
                disabled={whatsappId === null}
                attachment={attachment}
                onSubmit={(event) => {
                  event?.preventDefault();
                  void submit();
                }}
                onFile={chooseFile}
                onRemoveFile={() => setAttachment(null)}
                onLocation={() => void openDialog("location")}
                onVcard={() => void openDialog("vcard")}
              />
            }
          />
        </Box>
      </Box>
      <LocationDialog
        open={dialog === "location"}
        onClose={() => setDialog(null)}
        onSend={sendLocation}
        testId="simulator-location"
      />
      <ContactCardDialog open={dialog === "vcard"} onClose={() => setDialog(null)} onSend={sendVcard} testId="simulator-vcard" />
    </PageContainer>
  );
}
