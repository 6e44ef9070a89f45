/** Hands a blob to the browser as a file download under `fileName` (a fetched file needs the bearer, a link cannot send it). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // revoked a little later: some browsers read the URL after click() returns
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
