import type { QueueOptionView } from "@charla/contracts";

/**
 * An option being written in the area dialog: a new one (optionId null, under parentId) or an edit of a
 * saved one. Drafts live in the dialog's state and are saved with the area by its one Save button, so
 * a new area can get its options before it exists.
 */
export type OptionDraft = {
  key: string;
  optionId: number | null;
  parentId: number | null;
  title: string;
  message: string;
  /** Reaching the option hands the ticket to this queue integration or AI prompt (core §3); null for none. */
  qIntegrationId: number | null;
  promptId: number | null;
  /** The title was left once: from then on an empty one is shown as required. */
  touched: boolean;
};

let next = 0;

export function newDraft(parentId: number | null): OptionDraft {
  next += 1;
  return {
    key: `new-${next}`,
    optionId: null,
    parentId,
    title: "",
    message: "",
    qIntegrationId: null,
    promptId: null,
    touched: false,
  };
}

export function editDraft(option: QueueOptionView): OptionDraft {
  return {
    key: `edit-${option.id}`,
    optionId: option.id,
    parentId: option.parentId,
    title: option.title,
    message: option.message,
    qIntegrationId: option.q_integration_id,
    promptId: option.promptId,
    touched: false,
  };
}

export const draftInvalid = (draft: OptionDraft) => draft.title.trim() === "";
