/** The chatbot's texts and how it reads the contact's answers (behaviours: Queue choice, Option tree). */

/** What goes back one level of the option tree, and what goes back to the list of queues. */
export const BACK = "0";
export const MAIN_MENU = "#";

/** Lower case without accents: "Atención" and "atencion" are the same word. */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

const wordsOf = (text: string) =>
  fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Whether `text` holds `name` as whole words, in order ("quiero ventas" holds "Ventas", "preventas" does not). */
export function containsWords(text: string, name: string): boolean {
  const hay = wordsOf(text);
  const needle = wordsOf(name);
  if (needle.length === 0) return false;
  for (let i = 0; i + needle.length <= hay.length; i++) {
    if (needle.every((w, j) => hay[i + j] === w)) return true;
  }
  return false;
}

/** The label the contact typed: "1", " 1 ", "*1*", "[ 1 ]" and "1." all read "1". */
export function labelOf(input: string): string {
  return input.trim().replace(/^[\s*[(]+|[\s*\]).]+$/g, "");
}

/**
 * The item the answer names: its label typed alone, or (chatBotType keyword) its name anywhere in the
 * message as a word. Null when it names none.
 */
export function pickChoice<T>(
  input: string,
  items: readonly T[],
  label: (item: T, index: number) => string,
  name: (item: T) => string,
  keyword: boolean,
): T | null {
  const typed = labelOf(input);
  const byLabel = items.find((item, i) => label(item, i) === typed);
  if (byLabel !== undefined) return byLabel;
  if (!keyword) return null;
  return items.find((item) => containsWords(input, name(item))) ?? null;
}

const joined = (...parts: string[]) => parts.filter((p) => p.trim() !== "").join("\n\n");

/** The connection's greeting followed by the numbered queues, `*[ 1 ]* - Ventas`. */
export function queueListText(greeting: string, queues: readonly { name: string }[]): string {
  return joined(greeting, queues.map((q, i) => `*[ ${i + 1} ]* - ${q.name}`).join("\n"));
}

/**
 * A place in the option tree: its message, its children as `[ label ] - title`, then `[ 0 ] Volver`
 * (below the root only: the root's way back is the main menu) and `[ # ] Menú principal`.
 */
export function optionMenuText(message: string, children: readonly { option: string; title: string }[], atRoot: boolean): string {
  const lines = children.map((c) => `[ ${c.option} ] - ${c.title}`);
  if (!atRoot) lines.push(`[ ${BACK} ] Volver`);
  lines.push(`[ ${MAIN_MENU} ] Menú principal`);
  return joined(message, lines.join("\n"));
}
