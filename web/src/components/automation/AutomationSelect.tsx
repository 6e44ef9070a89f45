import type { IntegrationView, IntegrationsPage, PromptView, PromptsPage } from "@charla/contracts";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { type Control, type FieldPath, type FieldValues, useController } from "react-hook-form";
import { api } from "../../api/client";
import { usePermission } from "../../auth/permissions";
import { llmShown } from "../../lib/storage";

/** A picker reads at most this many pages of a list (the company's integrations or prompts). */
const MAX_PAGES = 20;

async function allPages<P, T>(path: string, signal: AbortSignal, items: (page: P) => T[], more: (page: P) => boolean) {
  const out: T[] = [];
  for (let n = 1; n <= MAX_PAGES; n++) {
    const page = await api<P>(`${path}?pageNumber=${n}`, { signal });
    out.push(...items(page));
    if (!more(page)) break;
  }
  return out;
}

/**
 * The company's queue integrations and AI prompts an area, an option or a connection may point at:
 * each list only for whom it may be shown (an admin with the plan's useIntegrations / useOpenAi; the
 * prompts not while the local setting useLLM is "false", core §9: lib/storage.ts), else null and its
 * select is not shown.
 */
export function useAutomationChoices(): { integrations: IntegrationView[] | null; prompts: PromptView[] | null } {
  const integrationsAllowed = usePermission("integrations.manage");
  const promptsAllowed = usePermission("prompts.manage") && llmShown();
  const integrations = useQuery({
    queryKey: ["queueIntegration", "choices"],
    queryFn: ({ signal }) =>
      allPages<IntegrationsPage, IntegrationView>(
        "/queueIntegration",
        signal,
        (p) => p.queueIntegrations,
        (p) => p.hasMore,
      ),
    enabled: integrationsAllowed,
  });
  const prompts = useQuery({
    queryKey: ["prompt", "choices"],
    queryFn: ({ signal }) =>
      allPages<PromptsPage, PromptView>(
        "/prompt",
        signal,
        (p) => p.prompts,
        (p) => p.hasMore,
      ),
    enabled: promptsAllowed,
  });
  return {
    integrations: integrationsAllowed ? (integrations.data ?? []) : null,
    prompts: promptsAllowed ? (prompts.data ?? []) : null,
  };
}

type Props = {
  label: string;
  noneLabel: string;
  value: number | null;
  onChange: (id: number | null) => void;
  choices: { id: number; name: string; type?: string }[];
  testId: string;
  size?: "small" | "medium";
};

/** A select of one integration or prompt; "none" is a real choice, kept as null. */
export function AutomationSelect({ label, noneLabel, value, onChange, choices, testId, size }: Props) {
  // a stored choice the list does not hold (still loading, or not visible to this user) is still shown
  const known = value === null || choices.some((c) => c.id === value);
  return (
    <TextField
      select
      label={label}
      fullWidth
      size={size}
      value={value ?? ""}
      onChange={(event) => onChange(event.target.value === "" ? null : Number(event.target.value))}
      slotProps={{
        select: { displayEmpty: true, SelectDisplayProps: { "data-testid": testId } as object },
        inputLabel: { shrink: true },
      }}
    >
      <MenuItem value="">
        <em>{noneLabel}</em>
      </MenuItem>
      {!known && value !== null && <MenuItem value={value}>#{value}</MenuItem>}
      {choices.map((c) => (
        <MenuItem key={c.id} value={c.id} data-testid={`${testId}-${c.id}`}>
          {c.type ? `${c.name} (${c.type})` : c.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

type Choice = { value: number | null | undefined; onChange: (id: number | null) => void };

/**
 * The pair an area, an option or a connection shows: its integration and its prompt, each only when
 * `choices` offers it (useAutomationChoices); `null` when neither is offered, so the caller's frame goes too.
 * `help`: which one answers when several apply, under them (across the caller's grid), with the prompts.
 */
export function AutomationPickers(props: {
  choices: ReturnType<typeof useAutomationChoices>;
  integration: Choice;
  prompt: Choice;
  labels: { integration: string; prompt: string; none: string };
  testIdPrefix: string;
  size?: "small" | "medium";
  help?: ReactNode;
}) {
  const { choices, integration, prompt, labels, testIdPrefix, size, help } = props;
  if (!choices.integrations && !choices.prompts) return null;
  return (
    <>
      {choices.integrations && (
        <AutomationSelect
          size={size}
          label={labels.integration}
          noneLabel={labels.none}
          value={integration.value ?? null}
          onChange={integration.onChange}
          choices={choices.integrations}
          testId={`${testIdPrefix}-integration`}
        />
      )}
      {choices.prompts && (
        <AutomationSelect
          size={size}
          label={labels.prompt}
          noneLabel={labels.none}
          value={prompt.value ?? null}
          onChange={prompt.onChange}
          choices={choices.prompts}
          testId={`${testIdPrefix}-prompt`}
        />
      )}
      {choices.prompts && help && (
        <Typography
          variant="caption"
          color="text.secondary"
          component="div"
          sx={{ gridColumn: "1 / -1", mt: -0.5 }}
          data-testid={`${testIdPrefix}-automation-help`}
        >
          {help}
        </Typography>
      )}
    </>
  );
}

/** The pair bound to a form's `integrationId` and `promptId` (an area's, a connection's). */
export function AutomationFormPickers<T extends FieldValues>(props: {
  control: Control<T>;
  choices: ReturnType<typeof useAutomationChoices>;
  labels: { integration: string; prompt: string; none: string };
  testIdPrefix: string;
  help?: ReactNode;
}) {
  const { field: integration } = useController({ control: props.control, name: "integrationId" as FieldPath<T> });
  const { field: prompt } = useController({ control: props.control, name: "promptId" as FieldPath<T> });
  return (
    <AutomationPickers
      choices={props.choices}
      integration={integration}
      prompt={prompt}
      labels={props.labels}
      testIdPrefix={props.testIdPrefix}
      help={props.help}
    />
  );
}
