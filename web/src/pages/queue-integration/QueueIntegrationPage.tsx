import ListAltIcon from "@mui/icons-material/ListAlt";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { integrationCollection, type IntegrationView } from "../../api/integrations";
import { ListPage } from "../../components/list-kit/ListPage";
import { DeliveryChip, DeliveryLogDialog } from "./DeliveryLogDialog";
import { IntegrationModal } from "./IntegrationModal";

const delivers = (i: IntegrationView) => i.type === "webhook" || i.type === "n8n";

function LastDelivery({ integration }: { integration: IntegrationView }) {
  const { t } = useTranslation("integrations");
  if (!delivers(integration))
    return (
      <Typography variant="body2" sx={{ color: "text.secondary" }}>
        —
      </Typography>
    );
  const d = integration.lastDelivery;
  if (!d)
    return (
      <Typography variant="body2" sx={{ color: "text.secondary" }}>
        {t("noDeliveries")}
      </Typography>
    );
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }} data-testid="integration-last-delivery">
      <DeliveryChip delivery={d} />
      {d.lastStatus !== null && (
        <Typography variant="caption" sx={{ color: "text.secondary" }}>
          HTTP {d.lastStatus}
        </Typography>
      )}
    </Box>
  );
}

/**
 * secondary §2 queue integrations (admins, plan useIntegrations): search, add, edit, confirmed delete,
 * each webhook's delivery log and test event; live on company-{id}-queueIntegration.
 */
export default function QueueIntegrationPage() {
  const { t } = useTranslation("integrations");
  const remove = integrationCollection.useDelete();
  integrationCollection.useLiveEvents();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  const [logOf, setLogOf] = useState<IntegrationView | null>(null);
  // the open log follows its integration's live updates (name, URL)
  const live = integrationCollection.useRecord(logOf?.id ?? null).data ?? logOf;

  return (
    <ListPage<IntegrationView>
      title={t("title")}
      testId="integrations"
      useRows={integrationCollection.useList}
      searchLabel={t("search")}
      addLabel={t("add")}
      onAdd={() => setEditing({ id: null })}
      actionsLabel={t("columns.actions")}
      empty={(searching) => t(searching ? "emptySearch" : "empty")}
      rowTestId="integration"
      rowData={(i) => ({ "data-integration-id": i.id })}
      onEdit={(i) => setEditing({ id: i.id })}
      remove={{
        title: (i) => t("confirmDelete.title", { name: i.name }),
        message: t("confirmDelete.message"),
        run: (i) => remove.mutateAsync(i.id),
        done: t("toasts.deleted"),
      }}
      rowExtra={(i) =>
        delivers(i) && (
          <Tooltip title={t("log.open")}>
            <IconButton size="small" aria-label={t("log.open")} data-testid="integration-log" onClick={() => setLogOf(i)}>
              <ListAltIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )
      }
      columns={[
        {
          label: t("columns.name"),
          cell: (i) => (
            <Box sx={{ minWidth: 0 }}>
              <Typography sx={{ fontWeight: 500 }}>{i.name}</Typography>
              {/* on phones the type column is hidden: it goes under the name */}
              <Typography variant="body2" sx={{ color: "text.secondary", display: { sm: "none" } }}>
                {t(`types.${i.type}`)}
              </Typography>
            </Box>
          ),
        },
        { label: t("columns.type"), wide: true, cell: (i) => t(`types.${i.type}`) },
        {
          label: t("columns.url"),
          wide: true,
          cell: (i) => (
            <Typography
              variant="body2"
              sx={{ maxWidth: 280, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}
            >
              {i.urlN8N || "—"}
            </Typography>
          ),
        },
        { label: t("columns.lastDelivery"), cell: (i) => <LastDelivery integration={i} /> },
      ]}
    >
      {editing && <IntegrationModal integrationId={editing.id} onClose={() => setEditing(null)} />}
      {live && <DeliveryLogDialog integration={live} onClose={() => setLogOf(null)} />}
    </ListPage>
  );
}
