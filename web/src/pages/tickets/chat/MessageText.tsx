import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import { type ReactNode, useMemo } from "react";
import { type FormatNode, parseFormatting } from "./message-format";

type Props = {
  text: string;
  /** Words to mark: the `highlight` query parameter of the route, or the parts a search found. */
  highlight?: string | readonly string[] | null;
  /** Off inside clickable quotes: a link may not sit inside a button. */
  links?: boolean;
};

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Plain text with the matches of the search marked; both kinds are React text, never markup. */
function highlighted(text: string, pattern: RegExp | null, key: string): ReactNode {
  if (!pattern) return text;
  const parts = text.split(pattern);
  if (parts.length === 1) return text;
  return parts.map((part, i) =>
    i % 2 === 1 ? (
      <Box
        component="mark"
        // biome-ignore lint/suspicious/noArrayIndexKey: the split parts have no identity beyond their place
        key={`${key}-${i}`}
        data-testid="message-highlight"
        sx={{ bgcolor: "warning.light", color: "inherit", borderRadius: 0.5, px: 0.25 }}
      >
        {part}
      </Box>
    ) : (
      part
    ),
  );
}

function render(nodes: FormatNode[], pattern: RegExp | null, prefix: string, links: boolean): ReactNode[] {
  return nodes.map((node, i) => {
    const key = `${prefix}.${i}`;
    switch (node.type) {
      case "text":
        return <span key={key}>{highlighted(node.text, pattern, key)}</span>;
      case "link":
        if (!links) return <span key={key}>{highlighted(node.text, pattern, key)}</span>;
        return (
          <Link key={key} href={node.href} target="_blank" rel="noopener noreferrer" sx={{ color: "info.main" }}>
            {highlighted(node.text, pattern, key)}
          </Link>
        );
      case "mono":
        return (
          <Box
            key={key}
            component="code"
            sx={{ fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", fontSize: "0.92em" }}
          >
            {node.text}
          </Box>
        );
      case "bold":
        return <strong key={key}>{render(node.children, pattern, key, links)}</strong>;
      case "italic":
        return <em key={key}>{render(node.children, pattern, key, links)}</em>;
      case "strike":
        return <s key={key}>{render(node.children, pattern, key, links)}</s>;
      default:
        return null;
    }
  });
}

/**
 * core §2: *bold*, _italic_, ~strike~, `mono`, line breaks and web links in a new tab. Built from
 * React elements only, so markup a contact sends (<script>, <img onerror>) shows as the text it is.
 */
export function MessageText({ text, highlight, links = true }: Props) {
  const nodes = useMemo(() => parseFormatting(text), [text]);
  const key = typeof highlight === "string" ? highlight : (highlight ?? []).join("\u0000");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the terms (a new array each render)
  const pattern = useMemo(() => {
    const terms = (typeof highlight === "string" ? [highlight] : (highlight ?? [])).map((term) => term.trim()).filter(Boolean);
    if (terms.length === 0) return null;
    // the longest first: "pedidos" is marked whole, not as "pedido" and an "s"
    const alternatives = [...new Set(terms)].sort((a, b) => b.length - a.length).map(escapeRegExp);
    return new RegExp(`(${alternatives.join("|")})`, "gi");
  }, [key]);
  return <>{render(nodes, pattern, "n", links)}</>;
}
