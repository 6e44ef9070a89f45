import { ConnectionForm, type ConnectionProvider, type ConnectionView } from "@charla/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldPath, Resolver, UseFormSetError } from "react-hook-form";
import { errorText, validationIssues } from "../../api/errors";
import type { ConnectionPayload } from "../../api/connections";
import { ApiError } from "../../api/client";

/**
 * What the modal edits. Number inputs hold what was typed (a string) until the contract's schema
 * coerces them; selects hold ids or null.
 */
export type ConnectionFormValues = {
  name: string;
  number: string;
  provider: ConnectionProvider;
  isDefault: boolean;
  greetingMessage: string;
  complationMessage: string;
  transferMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  queueIds: number[];
  promptId: number | null;
  sendIdQueue: number | null;
  timeSendQueue: number | string;
  maxUseBotQueues: number | string;
  timeUseBotQueues: number | string;
  expiresTicket: number | string;
};

/** The contract's schema validates here exactly as the API does; its output is what is sent. */
export const connectionResolver = zodResolver(ConnectionForm) as unknown as Resolver<
  ConnectionFormValues,
  unknown,
  ConnectionPayload
>;

/** core §9 Connection defaults: maxUseBotQueues 3, the rest 0 / none, provider beta. */
export function formValuesOf(connection?: ConnectionView): ConnectionFormValues {
  return {
    name: connection?.name ?? "",
    number: connection?.number ?? "",
    provider: connection?.provider ?? "beta",
    isDefault: connection?.isDefault ?? false,
    greetingMessage: connection?.greetingMessage ?? "",
    complationMessage: connection?.complationMessage ?? "",
    transferMessage: connection?.transferMessage ?? "",
    outOfHoursMessage: connection?.outOfHoursMessage ?? "",
    ratingMessage: connection?.ratingMessage ?? "",
    expiresInactiveMessage: connection?.expiresInactiveMessage ?? "",
    queueIds: connection?.queues.map((queue) => queue.id) ?? [],
    // no prompt picker yet (core §9: only with the local setting useLLM); a stored choice is kept
    promptId: connection?.promptId ?? null,
    sendIdQueue: connection?.sendIdQueue ?? null,
    timeSendQueue: connection?.timeSendQueue ?? 0,
    maxUseBotQueues: connection?.maxUseBotQueues ?? 3,
    timeUseBotQueues: connection?.timeUseBotQueues ?? 0,
    expiresTicket: connection?.expiresTicket ?? 0,
  };
}

const formFields: ReadonlySet<string> = new Set(Object.keys(formValuesOf()));

/**
 * The API's zod issues (`issues[].path`) go back onto the fields they name; a greeting missing with
 * several queues (ERR_WAPP_GREETING_REQUIRED) lands on the greeting. True when any did.
 */
export function applyServerIssues(error: unknown, setError: UseFormSetError<ConnectionFormValues>): boolean {
  let applied = false;
  for (const issue of validationIssues(error)) {
    const field = issue.path.split(".")[0];
    if (!formFields.has(field)) continue;
    setError(field as FieldPath<ConnectionFormValues>, { type: "server", message: issue.message });
    applied = true;
  }
  if (error instanceof ApiError && error.code === "ERR_WAPP_GREETING_REQUIRED") {
    setError("greetingMessage", { type: "server", message: errorText(error) }, { shouldFocus: true });
    applied = true;
  }
  return applied;
}
