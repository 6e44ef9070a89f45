/** Escapes LIKE wildcards so a search for "50%" means those characters. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
