/** Business limits of core §9 and secondary §9, shared by forms, routes and screens. */
export const Limits = {
  name: { min: 2, max: 50 },
  password: { min: 5, max: 50 },
  email: { max: 120 },
  contactNumber: { min: 8, max: 50 },
  note: { min: 2, max: 5000 },
  tagName: { min: 3, max: 50 },
  messageBody: { max: 65_536 },
  /** Recorded audio under this size is discarded (core §5). */
  audioMinBytes: 10_000,
  /** Bytes of one attached file. */
  mediaMaxBytes: 64 * 1024 * 1024,
  ticketsPageSize: 40,
  /** Kanban cards a request (secondary §7 Kanban). */
  kanbanPageSize: 100,
  messagesPageSize: 20,
  quickReplyLabel: 35,
  queueColor: { min: 3, max: 9 },
  searchMin: 3,
  pageSize: 20,
  toastMs: 2000,
  debounceMs: 500,
  subscriptionWarningDays: 5,
  statusPingMs: 300_000,
  socketPingMs: 18_000,
  uploadTimeoutMs: 720_000,
  profilePictureMaxBytes: 5 * 1024 * 1024,
  logoMaxBytes: 2 * 1024 * 1024,
  settingValueMax: 2000,
} as const;

export const DefaultColors = { primary: "#FAAF3B", header: "#ffffff" } as const;
