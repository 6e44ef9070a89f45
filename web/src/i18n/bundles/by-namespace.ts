/** `{ "../es/chat.json": {...} }` as `{ chat: {...} }`: a file's name is its namespace. */
export function byNamespace(files: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const bundle: Record<string, Record<string, unknown>> = {};
  for (const [path, content] of Object.entries(files)) {
    const match = /\/([\w-]+)\.json$/.exec(path);
    if (match) bundle[match[1]] = content;
  }
  return bundle;
}
