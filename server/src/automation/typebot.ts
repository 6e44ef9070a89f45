import type { BotWorld } from "../chatbot/state.js";
import type { Automation } from "./resolve.js";

export type TypebotAutomation = Extract<Automation, { kind: "typebot" }>;

/**
 * A typebot's turn on the ticket's received message (issue 30): start or continue its chat session
 * through Typebot's HTTP chat API and send its messages, or hand the ticket over. Claims the bot's turn
 * (chatbot/turns.ts) so a repeated run answers once. Being written by the typebot helper.
 */
export async function runTypebotTurn(_w: BotWorld, _auto: TypebotAutomation, _input: string): Promise<void> {
  throw new Error("typebot turns are not built yet");
}
