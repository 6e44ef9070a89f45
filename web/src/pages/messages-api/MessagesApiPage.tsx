import { ExternalApi } from "@charla/contracts";
import DocsIcon from "@mui/icons-material/MenuBookOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Divider from "@mui/material/Divider";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { PageContainer } from "../../components/PageContainer";
import { CodeBlock } from "./CodeBlock";
import { MediaTestForm, TextTestForm, apiOrigin } from "./TestForms";

function Section({
  id,
  title,
  method,
  path,
  children,
}: {
  id: string;
  title: string;
  method?: string;
  path?: string;
  children: ReactNode;
}) {
  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 1.5, sm: 2.5 }, display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 1.5, minWidth: 0 }}
      data-testid={`api-section-${id}`}
    >
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {method && path && (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
          <Chip label={method} color="primary" size="small" sx={{ fontWeight: 700 }} />
          <Typography component="code" sx={{ fontFamily: "monospace", wordBreak: "break-all" }}>
            {path}
          </Typography>
        </Box>
      )}
      {children}
    </Paper>
  );
}

const TOKEN = "<TOKEN>";
const NUMBER = "5215512345678";

const webhookExample = JSON.stringify(
  {
    msg: [
      {
        userMessage: "Hola, ¿tienen envío?",
        message: "Hola, ¿tienen envío?",
        updateAt: "2026-01-15T14:03:00.000Z",
        fromMe: false,
        id: 981,
      },
      { userMessage: "", message: "¡Sí! ¿A qué ciudad?", updateAt: "2026-01-15T14:04:10.000Z", fromMe: true, id: 982 },
    ],
    eventintegration: "message",
    ticket: { id: 42, uuid: "6f1c2b9e-…", status: "pending", queueId: 3, whatsappId: 1 },
    userData: { name: "Ana López", number: NUMBER, email: "ana@ejemplo.com" },
  },
  null,
  2,
);

/**
 * /messages-api (secondary §2, §7; admin and the plan's useExternalApi): how to call the external API
 * with a connection's token, every section of the spec with copyable curl examples, and the test forms
 * for text and media.
 */
export default function MessagesApiPage() {
  const { t } = useTranslation("messagesApi");
  const origin = apiOrigin();
  const auth = `-H "Authorization: Bearer ${TOKEN}"`;
  const curl = {
    text: `curl -X POST "${origin}/api/messages/send" \\\n  ${auth} \\\n  -H "Content-Type: application/json" \\\n  -d '{"number": "${NUMBER}", "body": "Hola {{name}}"}'`,
    media: `curl -X POST "${origin}/api/messages/send" \\\n  ${auth} \\\n  -F "number=${NUMBER}" \\\n  -F "body=${t("media.caption")}" \\\n  -F "medias=@/ruta/archivo.pdf"`,
    contact: `curl -X POST "${origin}/api/shared-contact" \\\n  ${auth} \\\n  -H "Content-Type: application/json" \\\n  -d '{"name": "Ana López", "number": "${NUMBER}", "email": "ana@ejemplo.com"}'`,
    messages: `curl "${origin}/api/ticket-messages?ticketId=<ID_O_UUID>&pageNumber=1" \\\n  ${auth}`,
    groups: `curl "${origin}/api/list-groups" \\\n  ${auth}`,
  };

  return (
    <PageContainer
      title={t("title")}
      actions={
        <Button
          variant="outlined"
          startIcon={<DocsIcon />}
          href="/api/docs"
          target="_blank"
          rel="noopener"
          data-testid="api-openapi-link"
        >
          {t("openapi")}
        </Button>
      }
    >
      <Box sx={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 2, maxWidth: 1100, width: "100%" }}>
        <Paper
          variant="outlined"
          sx={{ p: { xs: 1.5, sm: 2.5 }, display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 1 }}
        >
          <Typography variant="h6" component="h2">
            {t("intro.title")}
          </Typography>
          <Typography>
            <Trans
              t={t}
              i18nKey="intro.token"
              components={{ conn: <Link component={RouterLink} to="/connections" data-testid="api-connections-link" /> }}
            />
          </Typography>
          <Typography>{t("intro.auth")}</Typography>
          <CodeBlock code={`Authorization: Bearer ${TOKEN}`} />
          <Typography variant="body2" color="text.secondary">
            {t("intro.limits", { seconds: ExternalApi.testTimeoutMs / 1000 })}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t("intro.openapi")}{" "}
            <Link href="/api/openapi.json" target="_blank" rel="noopener">
              /api/openapi.json
            </Link>
          </Typography>
        </Paper>

        <Section id="text" title={t("text.title")} method="POST" path="/api/messages/send">
          <Typography>{t("text.description", { name: "{{name}}" })}</Typography>
          <CodeBlock code={curl.text} testId="api-curl-text" />
          <Typography variant="body2">{t("text.response")}</Typography>
          <CodeBlock code={`{ "mensagem": "Mensaje enviado", "ticket_uuid": "…" }`} />
          <Typography variant="body2" color="text.secondary">
            {t("text.idempotency")}
          </Typography>
          <Divider />
          <TextTestForm />
        </Section>

        <Section id="media" title={t("media.title")} method="POST" path="/api/messages/send">
          <Typography>{t("media.description")}</Typography>
          <CodeBlock code={curl.media} testId="api-curl-media" />
          <Divider />
          <MediaTestForm />
        </Section>

        <Section id="contact" title={t("contact.title")} method="POST" path="/api/shared-contact">
          <Typography>{t("contact.description")}</Typography>
          <CodeBlock code={curl.contact} testId="api-curl-contact" />
        </Section>

        <Section id="messages" title={t("messages.title")} method="GET" path="/api/ticket-messages">
          <Typography>{t("messages.description", { size: ExternalApi.pageSize })}</Typography>
          <CodeBlock code={curl.messages} testId="api-curl-messages" />
          <Typography variant="body2">{t("messages.fields")}</Typography>
        </Section>

        <Section id="groups" title={t("groups.title")} method="GET" path="/api/list-groups">
          <Typography>{t("groups.description")}</Typography>
          <CodeBlock code={curl.groups} testId="api-curl-groups" />
          <CodeBlock code={`{ "mensagem": "…", "groups": [{ "id": "1203…@g.us", "name": "Ventas", "participants": 12 }] }`} />
        </Section>

        <Section id="webhook" title={t("webhook.title")}>
          <Typography>{t("webhook.description")}</Typography>
          <Typography variant="subtitle2">{t("webhook.headers")}</Typography>
          <Box component="ul" sx={{ m: 0, pl: 3, display: "grid", gap: 0.5 }}>
            {(["secretKey", "webhookId", "webhookTimestamp", "webhookSignature"] as const).map((key) => (
              <Typography component="li" key={key} variant="body2">
                {t(`webhook.header.${key}`)}
              </Typography>
            ))}
          </Box>
          <Typography variant="subtitle2">{t("webhook.body")}</Typography>
          <CodeBlock code={webhookExample} testId="api-webhook-body" />
          <Typography variant="body2" color="text.secondary">
            {t("webhook.verify")}
          </Typography>
        </Section>
      </Box>
    </PageContainer>
  );
}
