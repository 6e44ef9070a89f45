import type { ConnectionProvider, ConnectionView } from "@charla/contracts";

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
  integrationId: number | null;
  sendIdQueue: number | null;
  timeSendQueue: number | string;
  maxUseBotQueues: number | string;
  timeUseBotQueues: number | string;
  expiresTicket: number | string;
  /** Cloud API (provider cloud): Meta's ids, the secrets (blank on an edit keeps the stored one), the fallback template. */
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  templateName: string;
  templateLanguage: string;
  templateParams: string[];
};

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
    // the pickers show only to admins with the plan's flag (the prompt's not while useLLM is "false", core §9); a
    // stored choice is kept either way
    promptId: connection?.promptId ?? null,
    integrationId: connection?.integrationId ?? null,
    sendIdQueue: connection?.sendIdQueue ?? null,
    timeSendQueue: connection?.timeSendQueue ?? 0,
    maxUseBotQueues: connection?.maxUseBotQueues ?? 3,
    timeUseBotQueues: connection?.timeUseBotQueues ?? 0,
    expiresTicket: connection?.expiresTicket ?? 0,
    phoneNumberId: connection?.cloud?.phoneNumberId ?? "",
    businessAccountId: connection?.cloud?.businessAccountId ?? "",
    // the view has only their masked tails: never sent back as if they were the secrets
    accessToken: "",
    appSecret: "",
    verifyToken: "",
    templateName: connection?.cloud?.templateName ?? "",
    templateLanguage: connection?.cloud?.templateLanguage ?? "",
    templateParams: connection?.cloud?.templateParams ?? [],
  };
}

/** What the API is sent: the fallback template's parameters without the blank lines left in the field. */
export function payloadOf(values: ConnectionFormValues): ConnectionFormValues {
  return { ...values, templateParams: values.templateParams.map((param) => param.trim()).filter(Boolean) };
}
