import html2canvas from 'html2canvas';
import { jsPDF } from 'jspdf';
import { BAT_PDF } from '@shared/rules/bat';
import { withoutInlineStyles } from '../../lib/html-capture';

/** A canvas as JPEG bytes: encoded off the main thread (toBlob), while the next page is drawn. */
function jpegOf(canvas: HTMLCanvasElement): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? blob.arrayBuffer().then((buffer) => resolve(new Uint8Array(buffer)), reject) : reject(new Error('JPEG'))),
      'image/jpeg',
      BAT_PDF.quality,
    ),
  );
}

/**
 * One page drawn by html2canvas. Its copy of the document holds only the page and the elements around it (and the
 * head, for the style sheets): html2canvas copies every computed style of every SVG it clones and waits for every
 * image of its copy, so a copy of the whole editor (its icons, the screenshot library, the other pages) cost
 * most of each page's time.
 */
function capturePage(page: HTMLElement, canvas: HTMLCanvasElement): Promise<HTMLCanvasElement> {
  const head = page.ownerDocument.head;
  // A given canvas is drawn as it is: its size (which also clears it and resets its transform) is set here.
  canvas.width = BAT_PDF.width * BAT_PDF.scale;
  canvas.height = BAT_PDF.height * BAT_PDF.scale;
  return withoutInlineStyles(() =>
    html2canvas(page, {
      scale: BAT_PDF.scale,
      width: BAT_PDF.width,
      height: BAT_PDF.height,
      useCORS: true,
      backgroundColor: '#ffffff',
      logging: false,
      canvas,
      ignoreElements: (element) => !(element.contains(page) || page.contains(element) || head.contains(element)),
    }),
  );
}

/**
 * The proof as a PDF (§2.6): each page element captured by html2canvas at scale 3 (1000 × 708 px), one A4
 * landscape PDF page each (jspdf), the image a JPEG at quality 2 (the spec's value, handed to the encoder as the
 * original did). `onPage` after every page (progress); `cancelled()` is asked between pages (Annuler): null then.
 */
export async function buildPdf(pages: HTMLElement[], onPage: (done: number) => void, cancelled: () => boolean): Promise<Uint8Array | null> {
  const jpegs: Promise<Uint8Array>[] = [];
  // One canvas of 3000 × 2124 pixels drawn again for every page: toBlob has taken its copy of the previous one.
  const canvas = document.createElement('canvas');
  for (const page of pages) {
    if (cancelled()) return null;
    await capturePage(page, canvas);
    if (cancelled()) return null;
    jpegs.push(jpegOf(canvas));
    onPage(jpegs.length);
    // Lets the progress and the Annuler button paint between two pages.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const pdf = new jsPDF({ orientation: BAT_PDF.orientation, unit: 'pt', format: BAT_PDF.format, compress: true });
  const width = pdf.internal.pageSize.getWidth();
  const height = pdf.internal.pageSize.getHeight();
  for (const [index, jpeg] of jpegs.entries()) {
    if (index > 0) pdf.addPage(BAT_PDF.format, BAT_PDF.orientation);
    pdf.addImage(await jpeg, 'JPEG', 0, 0, width, height);
  }
  return new Uint8Array(pdf.output('arraybuffer'));
}
