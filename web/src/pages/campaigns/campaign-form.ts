import { CAMPAIGN_MESSAGE_FIELDS, type CAMPAIGN_VARIANTS, type CampaignView } from "@charla/contracts";

export type MessageField = (typeof CAMPAIGN_MESSAGE_FIELDS)[number];
export type Variant = (typeof CAMPAIGN_VARIANTS)[number];

/** The dialog's fields: the contract's CampaignForm, with scheduledAt "" for a draft. */
export type CampaignValues = Record<MessageField, string> & {
  name: string;
  confirmation: boolean;
  whatsappId: number | null;
  contactListId: number | null;
  tagListId: number | null;
  fileListId: number | null;
  /** ISO with offset, or "" for none. */
  scheduledAt: string;
};

export const messageField = (variant: Variant): MessageField => `message${variant}`;
export const confirmationField = (variant: Variant): MessageField => `confirmationMessage${variant}`;

export function campaignValuesOf(campaign?: CampaignView): CampaignValues {
  const messages = Object.fromEntries(CAMPAIGN_MESSAGE_FIELDS.map((field) => [field, campaign?.[field] ?? ""])) as Record<
    MessageField,
    string
  >;
  return {
    ...messages,
    name: campaign?.name ?? "",
    confirmation: campaign?.confirmation ?? false,
    whatsappId: campaign?.whatsappId ?? null,
    contactListId: campaign?.contactListId ?? null,
    tagListId: campaign?.tagListId ?? null,
    fileListId: campaign?.fileListId ?? null,
    scheduledAt: campaign?.scheduledAt ?? "",
  };
}
