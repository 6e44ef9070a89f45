/** Every browser-stored key the app reads or writes (secondary §2 lists the preference keys). */
export const StorageKeys = {
  token: "token",
  companyId: "companyId",
  preferredTheme: "preferredTheme",
  primaryColor: "primaryColor",
  headerColor: "headerColor",
  pageTitle: "pageTitle",
  volume: "volume",
  language: "i18nextLng",
  tasks: "tasks",
  /** The chat composer's sign option (core §5: on by default, kept locally). */
  signMessage: "signMessage",
  /** Tickets screen: the queue filter (JSON array of ids), the admin's show-all switch. */
  ticketQueues: "selectedQueueIds",
  ticketShowAll: "ticketsShowAll",
  /** The browser-notification permission is asked for once. */
  notificationsAsked: "notificationsAsked",
  /** secondary §2: the campaign areas' routes exist only while this holds any value. */
  campaignsShown: "cshow",
  /** The company's logo as a PNG data URL, so the login page shows it before anyone signs in. */
  companyLogo: "companyLogo",
  /** core §4 company swap: set when the company's chatBotType is keyword. */
  isKeyword: "isKeyword",
  /** core §9: the prompt choices of areas, options and connections; hidden only while this is "false". */
  useLLM: "useLLM",
} as const;

type StorageKey = (typeof StorageKeys)[keyof typeof StorageKeys];

// Storage can throw (private mode, quota, disabled cookies); a preference is never worth a crash.
export function readItem(key: StorageKey): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeItem(key: StorageKey, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // ignored on purpose, see readItem
  }
}

/** secondary §2: whether the browser holds the campaign flag (any value, even an empty one). */
export function campaignsShown(): boolean {
  return readItem(StorageKeys.campaignsShown) !== null;
}

/**
 * core §9: whether this browser shows the AI prompt choices (the local setting useLLM). Shown unless
 * the setting says "false": no screen sets it, so reading it as "true only when set" hid the prompts from
 * every user (issue 40: a saved prompt could not be put to work). Who may pick a prompt is the admin
 * whose plan has useOpenAi (permissions `prompts.manage`); a browser that wants the pickers hidden still can.
 */
export function llmShown(): boolean {
  return readItem(StorageKeys.useLLM) !== "false";
}

/** The token is stored JSON-encoded (as the family's clients do); a plain value is accepted too. */
export function readToken(): string | null {
  const raw = readItem(StorageKeys.token);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === "string" && parsed ? parsed : null;
  } catch {
    return raw;
  }
}

export function writeToken(token: string | null): void {
  writeItem(StorageKeys.token, token === null ? null : JSON.stringify(token));
}

export function readCompanyId(): number | null {
  const value = Number(readItem(StorageKeys.companyId));
  return Number.isInteger(value) && value > 0 ? value : null;
}

/** Logging out forgets who we were, but keeps the look (theme, colours, language, volume). */
export function clearSession(): void {
  writeToken(null);
  writeItem(StorageKeys.companyId, null);
}
