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

/** A file's bytes as base64 (what the bridge carries), encoded natively: a string built in script took ~0.2 s a PDF. */
export function base64OfBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = reader.result as string;
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('base64'));
    reader.readAsDataURL(blob);
  });
}
