import { type CloudTemplate, TemplateSendForm, type TicketView } from "@charla/contracts";
import LockIcon from "@mui/icons-material/LockClockOutlined";
import RefreshIcon from "@mui/icons-material/Refresh";
import SendIcon from "@mui/icons-material/Send";
import Alert from "@mui/material/Alert";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCloudTemplates, useSendTemplate } from "../../../api/cloud";
import { errorText, toastError } from "../../../api/errors";
import { useSessionUser } from "../../../auth/context";
import { formatPhoneNumber } from "../../../lib/phone";
import { toast } from "../../../lib/toast";
import { useBubbleColors } from "./chat-colors";
import { fillTemplateBody, templateKey } from "./template-text";

type Suggestion = { label: string; value: string };

/** What a template's variables may be filled with, from the ticket and its contact. */
function useSuggestions(ticket: TicketView): Suggestion[] {
  const { t } = useTranslation("chat");
  const me = useSessionUser();
  return useMemo(() => {
    const name = ticket.contact.name || formatPhoneNumber(ticket.contact.number);
    const all: Suggestion[] = [
      { label: t("template.fill.contact"), value: name },
      { label: t("template.fill.firstName"), value: name.trim().split(/\s+/)[0] ?? "" },
      { label: t("template.fill.agent"), value: ticket.user?.name ?? me.name },
      { label: t("template.fill.queue"), value: ticket.queue?.name ?? "" },
      { label: t("template.fill.ticket"), value: String(ticket.id) },
    ];
    return all.filter((s) => s.value.trim() !== "");
  }, [t, ticket, me.name]);
}

/**
 * The first variables come filled (the contact's name, the agent's, the ticket's number): the usual
 * "Hola {{1}}" reads right at once; the agent changes or picks others from the ticket's facts.
 */
function prefilled(count: number, ticket: TicketView, agent: string): string[] {
  const facts = [ticket.contact.name || formatPhoneNumber(ticket.contact.number), ticket.user?.name ?? agent, String(ticket.id)];
  return Array.from({ length: count }, (_, i) => facts[i] ?? "");
}

/**
 * The composer once Meta's 24-hour window has closed (issue 31): free text would be refused, so only
 * the business account's approved templates are offered, their body previewed with the variables
 * filled, sent through POST /messages/{ticketId}/template.
 */
export function TemplateComposer({ ticket }: { ticket: TicketView }) {
  const { t } = useTranslation("chat");
  const colors = useBubbleColors();
  const me = useSessionUser();
  const { query, refresh } = useCloudTemplates(ticket.whatsappId);
  const send = useSendTemplate();
  const suggestions = useSuggestions(ticket);
  const [chosenKey, setChosenKey] = useState("");
  const [params, setParams] = useState<string[]>([]);
  const [tried, setTried] = useState(false);

  const approved = useMemo(
    () => (query.data?.templates ?? []).filter((template) => template.status.toUpperCase() === "APPROVED"),
    [query.data],
  );
  const sendable = approved.filter((template) => template.sendable);
  const chosen = sendable.find((template) => templateKey(template) === chosenKey) ?? null;

  const choose = (key: string) => {
    const template = sendable.find((item) => templateKey(item) === key);
    setChosenKey(key);
    setParams(template ? prefilled(template.params, ticket, me.name) : []);
    setTried(false);
  };

  const submit = async () => {
    if (!chosen) return;
    setTried(true);
    const form: TemplateSendForm = { name: chosen.name, language: chosen.language, params };
    if (!TemplateSendForm.safeParse(form).success) return;
    try {
      await send.mutateAsync({ ticketId: ticket.id, form });
      toast.success(t("template.sent"));
      setChosenKey("");
      setParams([]);
      setTried(false);
    } catch (error) {
      toastError(error);
    }
  };

  const doRefresh = () =>
    refresh.mutate(undefined, {
      onError: (error) => toastError(error),
    });

  return (
    <Box
      data-testid="template-composer"
      sx={{
        bgcolor: colors.composer,
        borderTop: 1,
        borderColor: "divider",
        px: { xs: 1, sm: 2 },
        py: 1.5,
        display: "flex",
        flexDirection: "column",
        gap: 1.5,
        maxHeight: "55vh",
        overflowY: "auto",
      }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <LockIcon fontSize="small" sx={{ color: "error.main", flexShrink: 0 }} />
        <Typography variant="body2" sx={{ color: "text.secondary", flex: 1 }} data-testid="template-composer-notice">
          {t("template.notice")}
        </Typography>
      </Box>

      {query.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
              {t("list.retry")}
            </Button>
          }
          data-testid="template-load-error"
        >
          {errorText(query.error, t("template.loadFailed"))}
        </Alert>
      ) : (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
          <TextField
            select
            size="small"
            label={t("template.pick")}
            value={chosen ? chosenKey : ""}
            onChange={(event) => choose(event.target.value)}
            disabled={query.isPending || approved.length === 0}
            helperText={query.isSuccess && approved.length === 0 ? t("template.noneApproved") : undefined}
            fullWidth
            sx={{ bgcolor: colors.input, borderRadius: 1 }}
            slotProps={{ select: { SelectDisplayProps: { "data-testid": "template-select" } as object } }}
          >
            {approved.map((template) => (
              <MenuItem
                key={templateKey(template)}
                value={templateKey(template)}
                disabled={!template.sendable}
                data-testid={template.sendable ? "template-option" : "template-option-unsupported"}
              >
                <Box sx={{ minWidth: 0 }}>
                  <TemplateOption template={template} />
                  {!template.sendable && (
                    <Typography variant="caption" sx={{ display: "block", whiteSpace: "normal" }}>
                      {t("template.unsupported")}
                    </Typography>
                  )}
                </Box>
              </MenuItem>
            ))}
          </TextField>
          <Tooltip title={t("template.refresh")}>
            <span>
              <IconButton
                onClick={doRefresh}
                disabled={refresh.isPending || query.isPending}
                aria-label={t("template.refresh")}
                data-testid="template-refresh"
              >
                {refresh.isPending || query.isPending ? <CircularProgress size={20} /> : <RefreshIcon />}
              </IconButton>
            </span>
          </Tooltip>
        </Box>
      )}

      {chosen && (
        <>
          <TemplatePreview template={chosen} params={params} />
          {params.length > 0 && (
            <Box sx={{ display: "grid", gap: 1.25, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } }}>
              {params.map((value, i) => (
                <Autocomplete
                  // biome-ignore lint/suspicious/noArrayIndexKey: a template's variables are positional ({{1}}, {{2}}…)
                  key={i}
                  freeSolo
                  disableClearable
                  size="small"
                  options={suggestions}
                  // an emptied field offers every fact; typing narrows them, a value of one's own closes the list
                  filterOptions={(options, { inputValue }) => {
                    const typed = inputValue.trim().toLowerCase();
                    return options.filter(
                      (o) => !typed || o.value.toLowerCase().includes(typed) || o.label.toLowerCase().includes(typed),
                    );
                  }}
                  getOptionLabel={(option) => (typeof option === "string" ? option : option.value)}
                  renderOption={({ key, ...props }, option) => (
                    <li key={key} {...props}>
                      <Box>
                        <Typography variant="body2">{option.value}</Typography>
                        <Typography variant="caption" sx={{ color: "text.secondary" }}>
                          {option.label}
                        </Typography>
                      </Box>
                    </li>
                  )}
                  inputValue={value}
                  onInputChange={(_, next) => setParams((current) => current.map((v, at) => (at === i ? next : v)))}
                  renderInput={(props) => (
                    <TextField
                      {...props}
                      label={t("template.param", { n: i + 1 })}
                      error={tried && value.trim() === ""}
                      helperText={tried && value.trim() === "" ? t("common:validation.required") : undefined}
                      sx={{ bgcolor: colors.input, borderRadius: 1 }}
                      slotProps={{
                        ...props.slotProps,
                        htmlInput: { ...props.slotProps.htmlInput, "data-testid": `template-param-${i + 1}` },
                      }}
                    />
                  )}
                />
              ))}
            </Box>
          )}
          <Box sx={{ display: "flex", justifyContent: "flex-end" }}>
            <Button
              variant="contained"
              endIcon={send.isPending ? <CircularProgress size={16} color="inherit" /> : <SendIcon />}
              disabled={send.isPending}
              onClick={() => void submit()}
              data-testid="template-send"
              sx={{ textTransform: "none", borderRadius: 5, px: 2.5 }}
            >
              {t("template.send")}
            </Button>
          </Box>
        </>
      )}
    </Box>
  );
}

function TemplateOption({ template }: { template: CloudTemplate }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {template.name}{" "}
        <Typography component="span" variant="caption" sx={{ color: "text.secondary" }}>
          · {template.language} · {template.category.toLowerCase()}
        </Typography>
      </Typography>
      <Typography variant="caption" component="div" noWrap sx={{ color: "text.secondary", maxWidth: 520 }}>
        {template.body}
      </Typography>
    </Box>
  );
}

/** The message as the customer will read it: the header, the body with the variables put in, the footer. */
function TemplatePreview({ template, params }: { template: CloudTemplate; params: string[] }) {
  const { t } = useTranslation("chat");
  const colors = useBubbleColors();
  return (
    <Box
      data-testid="template-preview"
      aria-label={t("template.preview")}
      sx={{
        alignSelf: "flex-end",
        maxWidth: { xs: "100%", sm: "75%" },
        bgcolor: colors.mine,
        color: colors.text,
        borderRadius: 2,
        px: 1.5,
        py: 1,
        boxShadow: 1,
        whiteSpace: "pre-wrap",
        wordBreak: "break-word",
        fontSize: 14,
      }}
    >
      {template.header && <Box sx={{ fontWeight: 600, mb: 0.5 }}>{template.header}</Box>}
      <Box data-testid="template-preview-body">{fillTemplateBody(template.body, params)}</Box>
      {template.footer && <Box sx={{ mt: 0.5, fontSize: 12, opacity: 0.7 }}>{template.footer}</Box>}
    </Box>
  );
}
