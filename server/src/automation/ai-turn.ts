import { and, desc, eq } from "drizzle-orm";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { type BotWorld, type Step, applyStep, fill } from "../chatbot/state.js";
import { messages } from "../db/schema/index.js";
import { aiClient, promptEndpoint, providerReason } from "./ai-client.js";
import { type Automation, toHumansPatch } from "./resolve.js";

export type PromptAutomation = Extract<Automation, { kind: "prompt" }>;

/** What the model answers, exactly, to hand the conversation to the area's humans (never sent to the customer). */
export const TRANSFER_PHRASE = "Acción: Transferir al sector de atención";

/** The longest text of one message the model is given (a pasted document stays bounded). */
const MAX_BODY = 4000;

/** Words of a customer asking for a person (es / pt / en), whole words, accents ignored. */
const PERSON_WORDS = [
  "humano",
  "humana",
  "persona",
  "agente",
  "asesor",
  "asesora",
  "operador",
  "operadora",
  "representante",
  "ejecutivo",
  "atendente",
  "pessoa",
  "human",
  "agent",
  "person",
  "operator",
  "representative",
];

/** Lower case without accents or marks, for matching words the customer or the model wrote. */
const plain = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

const personPattern = new RegExp(`(^|[^\\p{L}\\p{N}])(${PERSON_WORDS.join("|")})([^\\p{L}\\p{N}]|$)`, "u");

/** Whether the customer's message asks for a person (checked before the model is called). */
export function asksForPerson(input: string): boolean {
  return personPattern.test(plain(input));
}

const transferPattern = /(acci[oó]n\s*:\s*)?transferir al sector(\s+de\s+atenci[oó]n)?\.?/giu;

/** Whether the model's reply says to hand over (the phrase, with or without accents and case). */
export function saysTransfer(reply: string): boolean {
  return plain(reply).includes("transferir al sector");
}

/** The system message: the company's prompt, and how to hand over. */
function systemOf(prompt: PromptAutomation["prompt"]): string {
  return [
    prompt.prompt,
    "",
    `Instrucciones: responde al cliente de forma breve, en su idioma. Si el cliente quiere hablar con una persona, o si no puedes ayudarle, responde exactamente: "${TRANSFER_PHRASE}".`,
  ].join("\n");
}

const placeholders: Record<string, string> = {
  image: "[imagen]",
  sticker: "[sticker]",
  audio: "[audio]",
  ptt: "[audio]",
  video: "[video]",
  document: "[documento]",
  application: "[documento]",
  location: "[ubicación]",
  vcard: "[contacto]",
  contactMessage: "[contacto]",
};

/** A message as the model reads it: its text, a media one as a short placeholder with its caption. */
function contentOf(m: { body: string; mediaType: string }): string {
  const body = m.body.length > MAX_BODY ? `${m.body.slice(0, MAX_BODY)}…` : m.body;
  if (m.mediaType === "chat" || m.mediaType === "extendedTextMessage") return body;
  const tag = placeholders[m.mediaType] ?? `[${m.mediaType}]`;
  return `${tag} ${body}`.trim();
}

/**
 * The ticket's last `maxMessages` messages, oldest first: the customer's as the user's, the company's
 * (agents, the bot, this AI) as the assistant's, ending with the texts the bot sends in this same turn
 * before the model's answer (`sent`: the area's greeting), so the model goes on from them. Null when a
 * newer message of the customer is already stored: its own turn answers both, so the customer gets one answer.
 */
async function contextOf(w: BotWorld, maxMessages: number, sent: string[]): Promise<ChatCompletionMessageParam[] | null> {
  const rows = await w.q.db
    .select({ id: messages.id, body: messages.body, mediaType: messages.mediaType, fromMe: messages.fromMe })
    .from(messages)
    .where(w.q.messages.where(and(eq(messages.ticketId, w.ticket.id), eq(messages.isDeleted, false))))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(maxMessages);
  if (rows.some((m) => !m.fromMe && m.id > w.messageId)) return null;
  const stored = rows.reverse().map((m) => ({ fromMe: m.fromMe, content: contentOf(m) }));
  return [...stored, ...sent.map((content) => ({ fromMe: true, content }))]
    .filter((m) => m.content.trim() !== "")
    .slice(-maxMessages)
    .map((m) => ({ role: m.fromMe ? "assistant" : "user", content: m.content }) as ChatCompletionMessageParam);
}

/**
 * The ticket goes to the prompt's area ("Informar al sector"; its own when the prompt has none), out of
 * the automation's hands for good (automationDone: the scope, and the area it ends in), waiting for its
 * humans: the connection's transfer message if it has one, and an internal note saying why, in the
 * turn's one transaction (after what the turn's `lead` already says: the area's greeting).
 */
async function handOver(w: BotWorld, auto: PromptAutomation, lead: Step, why: string, texts: string[] = []) {
  const transfer = w.connection.transferMessage.trim();
  const ticket = { ...w.ticket, ...lead.patch };
  await applyStep(w, {
    patch: { ...lead.patch, ...toHumansPatch(ticket, auto.scope, auto.prompt.queueId) },
    texts: [...lead.texts, ...texts, ...(transfer ? [fill(w, transfer)] : [])],
    note: why,
  });
}

/**
 * An AI prompt's turn on the ticket's received message (secondary §3 Prompt): the customer asking for a
 * person hands over at once; otherwise the endpoint is asked with the prompt and the last messages, and
 * its reply is recorded and sent as an automatic message (the first turn also records that the prompt
 * holds the ticket). A reply with the transfer phrase hands over; a provider error or time-out hands
 * over too, with the reason in the note (never the key): the customer is never left without an answer
 * or a human. The turn writes once (chatbot/turns.ts): run twice, it answers once.
 * `lead`: what the bot decided earlier in this turn (the ticket entering the area or option this prompt
 * answers, with the area's greeting: chatbot/flow.ts); it commits with the prompt's answer, as one turn.
 */
export async function runPromptTurn(
  w: BotWorld,
  auto: PromptAutomation,
  input: string,
  lead: Step = { texts: [] },
): Promise<void> {
  const { prompt } = auto;
  const name = prompt.name;
  if (asksForPerson(input)) {
    return handOver(w, auto, lead, `El cliente pidió hablar con una persona: la IA «${name}» pasó la conversación al sector.`);
  }
  const { config, secrets } = w.s;
  let apiKey = "";
  let reply: string;
  try {
    const endpoint = promptEndpoint(config, secrets, prompt);
    apiKey = endpoint.apiKey;
    const history = await contextOf(w, prompt.maxMessages, lead.texts);
    // the newer message's turn has the prompt answer: this one only takes the ticket where it was going
    if (history === null) return applyStep(w, lead);
    const client = await aiClient(config, endpoint);
    const completion = await client.chat.completions.create({
      model: prompt.model,
      max_tokens: prompt.maxTokens,
      temperature: prompt.temperature,
      messages: [{ role: "system", content: systemOf(prompt) }, ...history],
    });
    reply = completion.choices?.[0]?.message?.content?.trim() ?? "";
  } catch (err) {
    const reason = providerReason(err, apiKey);
    w.s.log.warn({ companyId: w.q.companyId, ticketId: w.ticket.id, promptId: prompt.id, reason }, "AI prompt turn failed");
    return handOver(w, auto, lead, `La IA «${name}» no pudo responder (${reason}): la conversación pasó al sector.`);
  }
  if (!reply) return handOver(w, auto, lead, `La IA «${name}» no dio respuesta: la conversación pasó al sector.`);
  if (saysTransfer(reply)) {
    const rest = reply.replace(transferPattern, "").trim();
    return handOver(w, auto, lead, `La IA «${name}» transfirió la conversación al sector.`, rest ? [rest] : []);
  }
  await applyStep(w, { patch: { ...lead.patch, ...auto.assign }, texts: [...lead.texts, reply] });
}
