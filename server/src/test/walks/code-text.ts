/**
 * Just enough of a TypeScript lexer for the source walks: comments become spaces (offsets and line
 * numbers stay put), so an import or a statement quoted in a comment is not taken for code. Strings,
 * template literals (with nested `${}`) and regex literals are stepped over so a `//` inside them is
 * not a comment.
 */
export function blankComments(src: string): string {
  const out = src.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  // each open template literal remembers the brace depth of its `${`, so its `}` resumes the template
  const templates: number[] = [];
  let braces = 0;
  let i = 0;
  const n = src.length;
  const skipQuoted = (quote: string) => {
    i++;
    while (i < n && src[i] !== quote && src[i] !== "\n") i += src[i] === "\\" ? 2 : 1;
    i++;
  };
  // returns true at the template's end, false at a `${` (the code inside is lexed as usual)
  const skipTemplate = (): boolean => {
    while (i < n) {
      const c = src[i];
      if (c === "\\") i += 2;
      else if (c === "`") {
        i++;
        return true;
      } else if (c === "$" && src[i + 1] === "{") {
        i += 2;
        templates.push(braces);
        braces++;
        return false;
      } else i++;
    }
    return true;
  };
  while (i < n) {
    const c = src[i];
    const next = src[i + 1];
    if (c === "/" && next === "/") {
      const end = src.indexOf("\n", i);
      const stop = end < 0 ? n : end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = src.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") skipQuoted(c);
    else if (c === "`") {
      i++;
      skipTemplate();
    } else if (c === "/" && regexMayStart(src, i)) skipRegex();
    else if (c === "{") {
      braces++;
      i++;
    } else if (c === "}") {
      braces--;
      i++;
      if (templates.length && templates[templates.length - 1] === braces) {
        templates.pop();
        skipTemplate();
      }
    } else i++;
  }
  return out.join("");

  function skipRegex() {
    i++;
    let inClass = false;
    while (i < n && src[i] !== "\n") {
      const c = src[i];
      if (c === "\\") i += 2;
      else {
        i++;
        if (c === "[") inClass = true;
        else if (c === "]") inClass = false;
        else if (c === "/" && !inClass) break;
      }
    }
  }
}

/** A `/` starts a regex after an operator or an opening bracket, a division after a value. */
function regexMayStart(src: string, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && /\s/.test(src[k])) k--;
  if (k < 0) return true;
  if ("(,=:[!&|?{};+-*%<>~^".includes(src[k])) return true;
  const word = /[A-Za-z_$]+$/.exec(src.slice(Math.max(0, k - 10), k + 1))?.[0];
  return word === "return" || word === "typeof" || word === "case" || word === "in" || word === "of";
}

/** 1-based line of an offset. */
export function lineAt(src: string, offset: number): number {
  let line = 1;
  for (let k = 0; k < offset && k < src.length; k++) if (src[k] === "\n") line++;
  return line;
}
