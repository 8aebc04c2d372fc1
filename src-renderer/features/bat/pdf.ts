import html2canvas from 'html2canvas';
import { jsPDF } from 'jspdf';
import { BAT_PDF } from '@shared/rules/bat';
import { withoutInlineStyles } from '../../lib/html-capture';

export class PdfCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/**
 * The proof as a PDF (§2.6): each page element captured by html2canvas at scale 3 (1000 × 708 px), one A4
 * landscape PDF page each (jspdf), the image at quality 2 (the spec's value, handed to toDataURL as the original
 * did). `onPage` after every page (progress); `cancelled()` is asked between pages (Annuler).
 */
export async function buildPdf(pages: HTMLElement[], onPage: (done: number) => void, cancelled: () => boolean): Promise<Uint8Array> {
  const pdf = new jsPDF({ orientation: BAT_PDF.orientation, unit: 'pt', format: BAT_PDF.format, compress: true });
  const width = pdf.internal.pageSize.getWidth();
  const height = pdf.internal.pageSize.getHeight();
  for (const [index, element] of pages.entries()) {
    if (cancelled()) throw new PdfCancelled();
    const canvas = await withoutInlineStyles(() =>
      html2canvas(element, {
        scale: BAT_PDF.scale,
        width: BAT_PDF.width,
        height: BAT_PDF.height,
        useCORS: true,
        backgroundColor: '#ffffff',
        logging: false,
      }),
    );
    if (cancelled()) throw new PdfCancelled();
    if (index > 0) pdf.addPage(BAT_PDF.format, BAT_PDF.orientation);
    pdf.addImage(canvas.toDataURL('image/jpeg', BAT_PDF.quality), 'JPEG', 0, 0, width, height, undefined, 'FAST');
    onPage(index + 1);
    // Lets the progress and the Annuler button paint between two pages.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return new Uint8Array(pdf.output('arraybuffer'));
}
