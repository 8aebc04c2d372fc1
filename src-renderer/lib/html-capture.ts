/**
 * What the two html2canvas captures of the app share (the preview capture, the proof's PDF pages).
 *
 * html2canvas hides pseudo-elements of its copy of the page with a <style> element, which the app's CSP
 * (style-src 'self') refuses, with a console error. It builds that element with the page's own
 * document.createElement before the copy enters its frame: while a capture runs, a <template> (never rendered)
 * stands in for it. What the app captures uses no pseudo-elements, so nothing is lost.
 */
export async function withoutInlineStyles<T>(run: () => Promise<T>): Promise<T> {
  const original = document.createElement;
  const replaced = (tagName: string, options?: ElementCreationOptions) =>
    (original as (name: string, options?: ElementCreationOptions) => HTMLElement).call(
      document,
      tagName.toLowerCase() === 'style' ? 'template' : tagName,
      options,
    );
  document.createElement = replaced as typeof document.createElement;
  try {
    return await run();
  } finally {
    document.createElement = original;
  }
}

/** Bytes as base64, in slices (a spread of the whole array would overflow the call stack on large files). */
export function base64OfBytes(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}
