import type { TypebotInput, TypebotMessage, TypebotReply } from "./typebot-client.js";

/** At most this many WhatsApp texts per Typebot answer, each at most this long. */
const MAX_TEXTS = 20;
const MAX_TEXT = 4096;

type RichNode = { text?: unknown; type?: unknown; url?: unknown; children?: unknown; bold?: unknown; italic?: unknown };

const BLOCKS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "li", "ol", "ul", "lic", "variable"]);

/** Wraps the words of a leaf in WhatsApp's marks, the spaces around them left outside (`*Hola* `). */
function marked(text: string, bold: boolean, italic: boolean): string {
  if (!bold && !italic) return text;
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(text);
  if (!m?.[2]) return text;
  let core = m[2];
  if (italic) core = `_${core}_`;
  if (bold) core = `*${core}*`;
  return `${m[1]}${core}${m[3]}`;
}

/** Typebot's rich text (Slate nodes: paragraphs of leaves with marks, links) as plain WhatsApp text. */
export function richTextToWhatsApp(nodes: unknown): string {
  if (!Array.isArray(nodes)) return "";
  const inline = (node: RichNode): string => {
    if (typeof node.text === "string") return marked(node.text, node.bold === true, node.italic === true);
    const children = Array.isArray(node.children) ? (node.children as RichNode[]) : [];
    const inner = children.map((c) => (c && typeof c === "object" ? inline(c) : "")).join("");
    if (node.type === "a" && typeof node.url === "string" && node.url && !inner.includes(node.url)) {
      return inner.trim() ? `${inner} (${node.url})` : node.url;
    }
    if (BLOCKS.has(String(node.type)) && children.some((c) => c && typeof c === "object" && BLOCKS.has(String(c.type)))) {
      return children.map((c) => (c && typeof c === "object" ? inline(c) : "")).join("\n");
    }
    return inner;
  };
  return (nodes as RichNode[])
    .map((n) => (n && typeof n === "object" ? inline(n) : ""))
    .join("\n")
    .trim();
}

/** Typebot's markdown form as WhatsApp marks: `**b**` → `*b*`, `*i*` / `_i_` → `_i_`, `[t](u)` → `t (u)`. */
export function markdownToWhatsApp(md: string): string {
  const BOLD = "\u0000";
  return md
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, text: string, url: string) => (text === url ? url : `${text} (${url})`))
    .replace(/\*\*(\S(?:[^*]*\S)?)\*\*/g, `${BOLD}$1${BOLD}`)
    .replace(/__(\S(?:[^_]*\S)?)__/g, `${BOLD}$1${BOLD}`)
    .replace(/(^|[^*\w])\*(\S(?:[^*]*\S)?)\*(?![*\w])/g, "$1_$2_")
    .replaceAll(BOLD, "*")
    .replace(/\\([*_[\]()#>`~-])/g, "$1")
    .trim();
}

/** One bubble as a WhatsApp text: its words, or the address of its image, video, audio or embed. */
export function bubbleText(message: TypebotMessage): string {
  const c = message.content ?? {};
  if (message.type === "text") {
    if (c.type === "markdown" && typeof c.markdown === "string") return markdownToWhatsApp(c.markdown);
    if (Array.isArray(c.richText)) return richTextToWhatsApp(c.richText);
    if (typeof c.markdown === "string") return markdownToWhatsApp(c.markdown);
    if (typeof c.plainText === "string") return c.plainText.trim();
    return "";
  }
  if (["image", "video", "audio", "embed"].includes(message.type)) {
    return typeof c.url === "string" ? c.url.trim() : "";
  }
  return "";
}

/** A choice input as the numbered list the customer answers with its number or the item's words. */
export function inputText(input: TypebotInput | null | undefined): string {
  if (!input || !Array.isArray(input.items)) return "";
  if (input.type !== "choice input" && input.type !== "picture choice input") return "";
  const labels = input.items
    .map((item) => (item && typeof item === "object" ? (item.content ?? item.title ?? "") : ""))
    .filter((label): label is string => typeof label === "string" && label.trim() !== "");
  return labels.map((label, i) => `*[ ${i + 1} ]* - ${label.trim()}`).join("\n");
}

/** What the customer reads of one Typebot answer, in order: its bubbles, then the choice it offers. */
export function replyTexts(reply: Pick<TypebotReply, "messages" | "input">): string[] {
  const texts = reply.messages.map(bubbleText);
  texts.push(inputText(reply.input));
  return texts
    .map((t) => t.slice(0, MAX_TEXT))
    .filter((t) => t.trim() !== "")
    .slice(0, MAX_TEXTS);
}
