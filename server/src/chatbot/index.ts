import { afterInboundHooks } from "../pipeline/inbound.js";
import { runChatbot } from "./flow.js";

export { DEFAULT_RATING_MESSAGE, RATING_SCALE, ratingQuestion } from "./rating-question.js";

/** Hooks the chatbot and working hours into the inbound path (behaviours: inbound path 9–12); once per process. */
export function registerChatbot(): void {
  if (!afterInboundHooks.includes(runChatbot)) afterInboundHooks.push(runChatbot);
}
