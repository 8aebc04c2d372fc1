import { Readable } from 'node:stream';
import { DOCUMENTS_ROOT, FOLDER_MARKER } from '@shared/rules/storage';
import type { StorageAdapter } from '../../storage/adapter';
import { Canvas, circle, type Rgb } from '../../storage/demo-images';

/** A small logo: a disc of `rgb` on white, as a real PNG (so the preview pane has something to show). */
export function demoLogo(rgb: Rgb, size = 96): Buffer {
  const canvas = new Canvas(size, size, [255, 255, 255]);
  canvas.draw(circle(size / 2, size / 2, size * 0.4), rgb);
  return canvas.png();
}

function demoPdf(title: string): Buffer {
  const text = `BT /F1 18 Tf 72 720 Td (${title}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** The demo workspace's documents: two client folders with a logo, a brief and notes. Only into an empty storage. */
export async function seedStorageDemo(storage: StorageAdapter): Promise<boolean> {
  const existing = await storage.list(DOCUMENTS_ROOT);
  if (existing.folders.length || existing.files.length) return false;
  const files: [string, Buffer][] = [
    ['Laboratoire Aurelis/logo-aurelis.png', demoLogo([196, 23, 35])],
    ['Laboratoire Aurelis/brief-campagne-cardiologie-2026.pdf', demoPdf('Brief campagne cardiologie 2026')],
    [`Laboratoire Aurelis/Visuels/${FOLDER_MARKER}`, Buffer.alloc(0)],
    ['Pharmavie/logo-pharmavie.png', demoLogo([34, 110, 180])],
    ['Pharmavie/compte-rendu-reunion.txt', Buffer.from('Réunion de lancement\n- Cible : médecins généralistes\n- Diffusion : mars à mai\n', 'utf8')],
  ];
  for (const [name, bytes] of files) await storage.put(`${DOCUMENTS_ROOT}/${name}`, Readable.from([bytes]), 'application/octet-stream');
  return true;
}
