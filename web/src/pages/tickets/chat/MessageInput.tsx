import type { ContactCard, MessageView, QuickMessageView, SharedLocation, TicketView } from "@charla/contracts";
import { Limits } from "@charla/contracts";
import SignIcon from "@mui/icons-material/DrawOutlined";
import MicIcon from "@mui/icons-material/Mic";
import SendIcon from "@mui/icons-material/Send";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import InputBase from "@mui/material/InputBase";
import Checkbox from "@mui/material/Checkbox";
import Tooltip from "@mui/material/Tooltip";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { type ClipboardEvent, type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../api/errors";
import { useSendMessage } from "../../../api/messages";
import { quickMessageFile, useQuickMessages } from "../../../api/quick-messages";
import { usePermission } from "../../../auth/permissions";
import { useBubbleColors } from "./chat-colors";
import { AttachMenu } from "./AttachMenu";
import { AttachmentTray, matchQuickReplies, QuickReplyList, ReplyBar } from "./ComposerExtras";
import { RecorderBar } from "./RecorderBar";
import { useTypingSignal } from "./use-typing-signal";
import { useSignPreference } from "./use-sign-preference";
import { useVoiceNote } from "./use-voice-note";
import { ThinProgress } from "../../../components/ThinProgress";

type Props = { ticket: TicketView; replyTo: MessageView | null; onCancelReply: () => void };

// Unsent text survives switching tickets for as long as the page stays open.
const drafts = new Map<number, string>();

/** core §5 message input: Enter sends, Shift+Enter breaks the line, `/` offers quick replies, files, voice notes. */
export function MessageInput({ ticket, replyTo, onCancelReply }: Props) {
  const { t } = useTranslation("chat");
  const colors = useBubbleColors();
  const canSign = usePermission("messages.sign");
  const phone = useMediaQuery(useTheme().breakpoints.down("sm"));
  const [sign, setSign] = useSignPreference();
  const [text, setTextState] = useState(() => drafts.get(ticket.id) ?? "");
  const [files, setFiles] = useState<File[]>([]);
  const [active, setActive] = useState(0);
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const send = useSendMessage();
  const typing = useTypingSignal(ticket.id);
  const quick = useQuickMessages(text.startsWith("/"));

  const setText = useCallback(
    (value: string) => {
      drafts.set(ticket.id, value);
      setTextState(value);
    },
    [ticket.id],
  );

  const options = useMemo(
    () => (dismissedFor === text ? [] : matchQuickReplies(quick.data ?? [], text)),
    [quick.data, text, dismissedFor],
  );

  useEffect(() => {
    if (replyTo) inputRef.current?.focus();
  }, [replyTo]);

  const submit = useCallback(
    async (body: string, attached: File[]) => {
      if (!body.trim() && attached.length === 0) return;
      const quoted = replyTo;
      // Cleared at once so the next message can be typed; restored if the API refuses this one.
      typing.stop();
      setText("");
      setFiles([]);
      onCancelReply();
      try {
        await send.mutateAsync({
          ticketId: ticket.id,
          body: body.trim() ? body : "",
          quotedMsgId: quoted?.id ?? null,
          sign: canSign && sign,
          files: attached,
        });
      } catch (error) {
        toastError(error);
        setTextState((current) => {
          if (current) return current;
          drafts.set(ticket.id, body);
          return body;
        });
        setFiles((current) => (current.length ? current : attached));
      }
    },
    [replyTo, setText, onCancelReply, send, ticket.id, canSign, sign, typing.stop],
  );

  /** A location or a contact card goes at once, as its own message (quoting what is being answered). */
  const share = useCallback(
    async (what: SharedLocation | ContactCard): Promise<boolean> => {
      const quoted = replyTo;
      try {
        await send.mutateAsync({
          ticketId: ticket.id,
          body: "",
          quotedMsgId: quoted?.id ?? null,
          sign: false,
          files: [],
          ...("latitude" in what ? { location: what } : { contact: what }),
        });
        if (quoted) onCancelReply();
        return true;
      } catch (error) {
        toastError(error);
        return false;
      }
    },
    [replyTo, send, ticket.id, onCancelReply],
  );

  const voice = useVoiceNote(useCallback((file: File) => submit("", [file]), [submit]));

  const addFiles = (list: File[]) => {
    const fitting = list.filter((file) => file.size <= Limits.mediaMaxBytes);
    if (fitting.length < list.length) toast.error(t("composer.fileTooBig"));
    if (fitting.length) setFiles((current) => [...current, ...fitting]);
    inputRef.current?.focus();
  };

  /** The reply's text replaces the slash; its file (if any) joins the tray, so it goes with the text as caption. */
  const pick = (reply: QuickMessageView) => {
    setText(reply.message);
    setActive(0);
    inputRef.current?.focus();
    if (reply.isMedia) {
      quickMessageFile(reply).then(
        (file) => addFiles([file]),
        (error: unknown) => toastError(error),
      );
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (options.length > 0) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActive((i) => (i + step + options.length) % options.length);
        return;
      }
      if (event.key === "Escape") {
        setDismissedFor(text);
        return;
      }
      if ((event.key === "Enter" || event.key === "Tab") && !event.shiftKey) {
        event.preventDefault();
        pick(options[Math.min(active, options.length - 1)]);
        return;
      }
    }
    if (event.key === "Escape" && replyTo) {
      onCancelReply();
      return;
    }
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit(text, files);
    }
  };

  const onPaste = (event: ClipboardEvent) => {
    const pasted = event.clipboardData.files;
    if (pasted.length === 0) return;
    event.preventDefault();
    // core §5: only the first pasted file is kept
    addFiles([pasted[0]]);
  };

  const canSend = text.trim() !== "" || files.length > 0;
  const uploading = send.isPending && (send.variables?.files.length ?? 0) > 0;
  return (
    <Box sx={{ position: "relative", bgcolor: colors.composer, borderTop: 1, borderColor: "divider" }} data-testid="composer">
      {uploading && <ThinProgress sx={{ position: "absolute", top: 0, left: 0, right: 0, height: 2 }} />}
      {options.length > 0 && <QuickReplyList options={options} active={active} onPick={pick} />}
      {replyTo && <ReplyBar message={replyTo} contactName={ticket.contact.name} onCancel={onCancelReply} />}
      {files.length > 0 && (
        <AttachmentTray files={files} onRemove={(i) => setFiles((current) => current.filter((_, at) => at !== i))} />
      )}
      <Box sx={{ display: "flex", alignItems: "flex-end", gap: { xs: 0.25, sm: 0.75 }, px: { xs: 0.5, sm: 1.5 }, py: 1 }}>
        {!voice.recording && <AttachMenu onFiles={() => fileRef.current?.click()} onLocation={share} onContact={share} />}
        <input
          ref={fileRef}
          type="file"
          multiple
          hidden
          data-testid="composer-attach"
          onChange={(event) => {
            addFiles([...(event.target.files ?? [])]);
            event.target.value = "";
          }}
        />
        {canSign && !voice.recording && (
          <Tooltip title={t(sign ? "composer.signOn" : "composer.signOff")}>
            <Checkbox
              checked={sign}
              onChange={(_, checked) => setSign(checked)}
              icon={<SignIcon />}
              checkedIcon={<SignIcon />}
              sx={{ mb: 0.25, color: "action.active", "&.Mui-checked": { color: "primary.main" } }}
              slotProps={{ input: { "data-testid": "composer-sign", "aria-label": t("composer.sign") } as object }}
            />
          </Tooltip>
        )}
        {voice.recording ? (
          <RecorderBar startedAt={voice.startedAt} busy={voice.busy} onCancel={voice.cancel} onSend={() => void voice.finish()} />
        ) : (
          <InputBase
            inputRef={inputRef}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setActive(0);
              typing.typed(event.target.value);
            }}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            multiline
            maxRows={5}
            placeholder={t("composer.placeholder")}
            // phones would open their keyboard over the conversation
            autoFocus={!phone}
            slotProps={{
              input: {
                "data-testid": "composer-input",
                "aria-label": t("composer.placeholder"),
                maxLength: Limits.messageBody.max,
              } as object,
            }}
            sx={{
              flex: 1,
              minWidth: 0,
              bgcolor: colors.input,
              color: colors.text,
              borderRadius: 2.5,
              px: 1.75,
              py: 1.1,
              fontSize: 15,
              lineHeight: 1.4,
            }}
          />
        )}
        {!voice.recording &&
          (canSend ? (
            <Tooltip title={t("composer.send")}>
              <IconButton
                onClick={() => void submit(text, files)}
                aria-label={t("composer.send")}
                data-testid="composer-send"
                sx={{ mb: 0.25, color: "primary.main" }}
              >
                {uploading ? <CircularProgress size={22} /> : <SendIcon />}
              </IconButton>
            </Tooltip>
          ) : (
            <Tooltip title={t("audio.record")}>
              <IconButton
                onClick={() => void voice.start()}
                aria-label={t("audio.record")}
                data-testid="composer-record"
                sx={{ mb: 0.25 }}
              >
                <MicIcon />
              </IconButton>
            </Tooltip>
          ))}
      </Box>
    </Box>
  );
}
