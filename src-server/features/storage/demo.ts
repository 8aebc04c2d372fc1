import { Readable } from 'node:stream';
import { deflateSync } from 'node:zlib';
import { DOCUMENTS_ROOT, FOLDER_MARKER } from '@shared/rules/storage';
import type { StorageAdapter } from '../../storage/adapter';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A small logo: a disc of `rgb` on white, as a real PNG (so the preview pane has something to show). */
export function demoLogo(rgb: [number, number, number], size = 96): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: number[] = [];
  const centre = size / 2;
  for (let y = 0; y < size; y += 1) {
    rows.push(0);
    for (let x = 0; x < size; x += 1) {
      const inside = (x - centre) ** 2 + (y - centre) ** 2 < (size * 0.4) ** 2;
      rows.push(...(inside ? rgb : [255, 255, 255]));
    }
  }
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.from(rows))), chunk('IEND', Buffer.alloc(0))]);
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
