/** What a scan reports: tags by their local name (any `x:` prefix dropped) and text as written. */
export type XmlHandler = {
  open(name: string, attributes: string, selfClosing: boolean): void;
  close(name: string): void;
  /** Raw text between tags (entities not yet decoded: see `decodeXml`), in as many pieces as it came. */
  text(raw: string): void;
};

/** The longest tag taken (attributes included); a longer one is not from a spreadsheet. */
const MAX_TAG = 64 * 1024;

/** The file is not XML a spreadsheet program writes. */
export class BadXml extends Error {}

/**
 * From just after a tag's `<` to its `>`, quoted attribute values (which may hold a `>`) skipped. Each
 * part starts with a character of its own, so a tag that has not ended fails in one pass, not by
 * trying every split of it.
 */
const TAG_REST = /[^"'>]*(?:(?:"[^"]*"|'[^']*')[^"'>]*)*>/y;

/**
 * A small streaming scanner for the XML of spreadsheet files: fed text as it inflates, it reports
 * tags and text to `handler` and keeps only an unfinished tag between pieces, so a file of any size
 * costs the memory of its longest tag. No DTDs, no namespaces beyond dropping prefixes: enough for
 * what Excel, LibreOffice and the libraries that write .xlsx produce.
 *
 * The text is searched only by indexOf and regular expressions, never read character by character:
 * the unfinished tag joined to the next piece is a V8 cons string, which the engine reads by index
 * some twenty times slower than a flat one (a piece rarely ends between tags, so nearly every piece
 * was one), while a search flattens it once. A piece costs time in proportion to its length.
 */
export class XmlScanner {
  private rest = "";
  constructor(private readonly handler: XmlHandler) {}

  write(piece: string): void {
    const s = this.rest === "" ? piece : this.rest + piece;
    this.rest = "";
    let i = 0;
    while (i < s.length) {
      const lt = s.indexOf("<", i);
      if (lt === -1) {
        this.handler.text(s.slice(i));
        return;
      }
      if (lt > i) this.handler.text(s.slice(i, lt));
      const end = tagEnd(s, lt);
      if (end === -1) {
        if (s.length - lt > MAX_TAG) throw new BadXml("tag too long");
        this.rest = s.slice(lt);
        return;
      }
      this.tag(s, lt, end);
      i = end + 1;
    }
  }

  end(): void {
    if (this.rest.trim() !== "") throw new BadXml("unfinished tag");
  }

  private tag(s: string, lt: number, end: number): void {
    const first = s.charCodeAt(lt + 1);
    if (first === BANG) {
      // CDATA is text as it is; comments and declarations are nothing
      if (s.startsWith("<![CDATA[", lt)) this.handler.text(escapeXml(s.slice(lt + 9, end - 2)));
      return;
    }
    if (first === QUESTION) return;
    const closing = first === SLASH;
    const selfClosing = !closing && s.charCodeAt(end - 1) === SLASH;
    const body = s.slice(closing ? lt + 2 : lt + 1, selfClosing ? end - 1 : end);
    const space = body.search(/[\s]/);
    const qualified = space === -1 ? body : body.slice(0, space);
    const name = qualified.slice(qualified.indexOf(":") + 1);
    if (closing) this.handler.close(name);
    else {
      this.handler.open(name, space === -1 ? "" : body.slice(space), selfClosing);
      if (selfClosing) this.handler.close(name);
    }
  }
}

const BANG = 0x21;
const QUESTION = 0x3f;
const SLASH = 0x2f;

/** The index of the `>` that closes the markup at `lt`, or -1 when it has not arrived yet. */
function tagEnd(s: string, lt: number): number {
  if (s.startsWith("<!--", lt)) return endOf(s.indexOf("-->", lt + 4), 2);
  if (s.startsWith("<![CDATA[", lt)) return endOf(s.indexOf("]]>", lt + 9), 2);
  TAG_REST.lastIndex = lt + 1;
  return TAG_REST.test(s) ? TAG_REST.lastIndex - 1 : -1;
}

const endOf = (at: number, extra: number) => (at === -1 ? -1 : at + extra);

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Text or an attribute value as it reads: the five named entities and character references decoded. */
export function decodeXml(raw: string): string {
  if (!raw.includes("&")) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref[0] !== "#") return ENTITIES[ref] ?? whole;
    const code = ref[1] === "x" ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const attributePatterns = new Map<string, RegExp>();

/** The value of attribute `name` (any prefix) in a tag's `attributes`, decoded; undefined when absent. */
export function attribute(attributes: string, name: string): string | undefined {
  let pattern = attributePatterns.get(name);
  if (!pattern) {
    pattern = new RegExp(`(?:^|\\s)(?:[\\w.-]+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    attributePatterns.set(name, pattern);
  }
  const m = pattern.exec(attributes);
  return m ? decodeXml(m[1] ?? m[2]) : undefined;
}
