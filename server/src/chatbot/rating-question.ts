import { type TemplateFacts, fillTemplate } from "../lib/template.js";

/** The scale the contact answers with (core §9: 1 dissatisfied, 2 satisfied, 3 very satisfied). */
export const RATING_SCALE = "1 - Insatisfecho\n2 - Satisfecho\n3 - Muy satisfecho";

/** What is asked when the connection has no rating message of its own. */
export const DEFAULT_RATING_MESSAGE = "Por favor, califique nuestra atención respondiendo con un número:";

/** The answers a rating question takes, as the contact types them. */
export const RATING_ANSWERS = ["1", "2", "3"] as const;

/**
 * The rating question (behaviours: Rating): the connection's rating message, variables filled, then
 * the scale. Sent on resolve (tickets module) and asked once more by the chatbot when the answer is not 1–3.
 */
export function ratingQuestion(connectionRatingMessage: string | null | undefined, facts: TemplateFacts): string {
  const intro = connectionRatingMessage?.trim() ? connectionRatingMessage : DEFAULT_RATING_MESSAGE;
  return `${fillTemplate(intro, facts)}\n\n${RATING_SCALE}`;
}
