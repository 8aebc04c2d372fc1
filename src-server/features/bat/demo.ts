import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { eq, sql } from 'drizzle-orm';
import { jsPDF } from 'jspdf';
import type { BatItem } from '@shared/contract/bat';
import { BAT_PDF, gridToPixels, type BatVersionState } from '@shared/rules/bat';
import { BAT_ROOT } from '@shared/rules/preview';
import type { ServerContext } from '../../context';
import { adverts, batItems, batLayers, batPages, bats, batScreenshots, batVersions } from '../../db/schema';
import { sanitizeRichText } from '../../rich-text';
import { keyOfMediaUrl, mediaUrl } from '../../storage/media';
import { PROOF_TEXT } from './handlers/editor';
import { versionFolder } from './handlers/versions';

/** The demo advert that gets a proof: the published heart-failure post of the fictional Cardionov laboratory. */
const DEMO_ADVERT = 'Cardionov — Insuffisance cardiaque';
const DAY_MS = 86_400_000;

type Run = { text: string; bold?: boolean; italic?: boolean; size?: number; color?: string; link?: string };

/** A text item's Lexical state: one paragraph per line of runs. */
function richText(...lines: Run[][]): Record<string, unknown> {
  const textNode = (run: Run) => ({
    type: 'text',
    text: run.text,
    format: (run.bold ? 1 : 0) | (run.italic ? 2 : 0),
    style: [run.size ? `font-size: ${run.size}px` : '', run.color ? `color: ${run.color}` : ''].filter(Boolean).join('; '),
  });
  const paragraph = (runs: Run[]) => ({
    type: 'paragraph',
    children: runs.map((run) => (run.link ? { type: 'link', url: run.link, children: [textNode(run)] } : textNode(run))),
  });
  return sanitizeRichText({ root: { type: 'root', children: lines.map(paragraph) } }, PROOF_TEXT);
}

const text = (i: string, box: { x: number; y: number; w: number; h: number }, ...lines: Run[][]): BatItem => ({
  i,
  ...box,
  type: 'text',
  url: null,
  displayApp: false,
  content: richText(...lines),
});
const image = (i: string, box: { x: number; y: number; w: number; h: number }, url: string, displayApp: boolean): BatItem => ({
  i,
  ...box,
  type: 'image',
  url,
  displayApp,
  content: null,
});
const arrow = (i: string, from: [number, number], to: [number, number]): BatItem => ({
  i,
  x: from[0],
  y: from[1],
  w: to[0],
  h: to[1],
  type: 'arrow',
  url: null,
  displayApp: false,
  content: null,
});

/** Two pages of one layer each: the post as the client will see it, then the points the client asked about. */
function demoPages(capture: string | null, source: string): BatItem[][] {
  const pictures = (items: BatItem[]) => (capture ? items : []);
  return [
    [
      text('titre', { x: 0, y: 0, w: 24, h: 3 }, [{ text: 'Insuffisance cardiaque : les nouvelles recommandations ESC', bold: true, size: 24 }]),
      text('contexte', { x: 0, y: 3, w: 24, h: 2 }, [{ text: 'Post sponsorisé, audience ' }, { text: 'Cardiologues France', italic: true }]),
      ...pictures([image('capture', { x: 1, y: 7, w: 12, h: 18 }, capture!, true)]),
      text('note', { x: 20, y: 12, w: 14, h: 4 }, [
        { text: 'Nouveau logo Cardionov', bold: true, color: '#b91c1c' },
        { text: ', comme le client l’a demandé sur la version 1.' },
      ]),
      arrow('fleche', [600, 440], [370, 470]),
    ],
    [
      text('points', { x: 0, y: 0, w: 20, h: 2 }, [{ text: 'Points à valider', bold: true, size: 20 }]),
      text(
        'liste',
        { x: 0, y: 2, w: 20, h: 8 },
        [{ text: '1. Accroche : « Ce qui change pour vos patients en 2026, en cinq points clés. »' }],
        [{ text: '2. Mentions légales en pied de post, police de 10 px au moins.' }],
        [{ text: '3. Lien de la source : ' }, { text: source, link: source }],
      ),
      ...pictures([image('visuel', { x: 22, y: 1, w: 13, h: 12 }, capture!, false)]),
      arrow('fleche-lien', [380, 150], [600, 200]),
    ],
  ];
}

type TextNode = { type?: string; text?: string; children?: TextNode[] };

/** A text item's paragraphs as plain text. */
function paragraphsOf(content: Record<string, unknown> | null): string[] {
  const textOf = (node: TextNode): string => node.text ?? (node.children ?? []).map(textOf).join('');
  return ((content?.root as TextNode | undefined)?.children ?? []).map(textOf);
}

/** A frozen version's PDF: each page's texts, pictures and arrows where the proof places them (A4 landscape). */
function demoPdf(pages: BatItem[][], picture: Buffer | null, version: number): Uint8Array {
  const pdf = new jsPDF({ orientation: BAT_PDF.orientation, unit: 'pt', format: BAT_PDF.format, compress: true });
  const scale = BAT_PDF.pointsWidth / BAT_PDF.width;
  pages.forEach((items, index) => {
    if (index > 0) pdf.addPage(BAT_PDF.format, BAT_PDF.orientation);
    for (const item of items) {
      if (item.type === 'arrow') {
        pdf
          .setDrawColor('#ff0000')
          .setLineWidth(3)
          .line(item.x * scale, item.y * scale, item.w * scale, item.h * scale);
        continue;
      }
      const box = gridToPixels(item);
      const [x, y, w, h] = [box.left, box.top, box.width, box.height].map((value) => value * scale);
      if (item.type === 'image') {
        if (picture) pdf.addImage(new Uint8Array(picture), 'PNG', x, y, w, h);
        continue;
      }
      const lines = paragraphsOf(item.content).join('\n');
      pdf.setFontSize(11).setTextColor('#111111');
      pdf.text(pdf.splitTextToSize(lines, w), x, y + 11);
    }
    pdf
      .setFontSize(8)
      .setTextColor('#666666')
      .text(`BAT v${version} — page ${index + 1}`, 12, BAT_PDF.pointsHeight - 10);
  });
  return new Uint8Array(pdf.output('arraybuffer'));
}

/**
 * The demo workspace's proof (`--demo`): the heart-failure post gets a two-page proof built on a capture of its
 * cover, and two frozen versions: the first sent and answered 'Modifications demandées', the second sent to the
 * client and waiting. Once the demo adverts exist, only while no proof exists at all.
 */
export async function seedBatDemo(context: ServerContext): Promise<boolean> {
  const { db, storage } = context;
  const publicUrl = context.config.storage?.publicUrl;
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(bats);
  if (count > 0) return false;
  const [advert] = await db.select({ id: adverts.id, data: adverts.data }).from(adverts).where(eq(adverts.name, DEMO_ADVERT));
  if (!advert) return false;
  const data = advert.data as { image?: string | null; source?: string };
  // The capture is the advert's cover, copied into the proof's library as a capture is (deleting it keeps the cover).
  const coverKey = data.image ? keyOfMediaUrl(data.image, publicUrl) : null;
  const cover = coverKey ? await storage.get(coverKey) : null;
  const picture = cover ? await buffer(cover.body) : null;
  const captureKey = `${BAT_ROOT}/${advert.id}/demo-capture.png`;
  const capture = picture ? mediaUrl(publicUrl, await storage.put(captureKey, Readable.from([picture]), 'image/png')) : null;
  const pages = demoPages(capture, data.source || 'https://www.cardionov.example');
  const now = context.clock.now().getTime();
  const versions: { state: BatVersionState; by: string; createdAt: number; stateAt: number }[] = [
    { state: 'changes_requested', by: 'Claire Durand', createdAt: now - 6 * DAY_MS, stateAt: now - 5 * DAY_MS },
    { state: 'sent', by: 'Camille Martin', createdAt: now - 2 * DAY_MS, stateAt: now - DAY_MS },
  ];
  const pdfKeys: string[] = [];
  for (const [index] of versions.entries()) {
    const key = `${versionFolder(advert.id)}/bat-v${index + 1}-demo.pdf`;
    await storage.put(key, Readable.from([Buffer.from(demoPdf(pages, picture, index + 1))]), 'application/pdf');
    pdfKeys.push(key);
  }
  await db.transaction(async (tx) => {
    await tx.insert(bats).values({ advertId: advert.id, version: pages.length + 1, updatedAt: new Date(now - DAY_MS) });
    if (capture)
      await tx
        .insert(batScreenshots)
        .values({ advertId: advert.id, webpath: capture, storageKey: captureKey, createdAt: new Date(now - 7 * DAY_MS) });
    for (const [index, items] of pages.entries()) {
      const [page] = await tx
        .insert(batPages)
        .values({ advertId: advert.id, pageNumber: index + 1 })
        .returning({ id: batPages.id });
      const [layer] = await tx.insert(batLayers).values({ pageId: page.id, level: 1 }).returning({ id: batLayers.id });
      await tx.insert(batItems).values(items.map(({ i, ...item }, position) => ({ layerId: layer.id, position, itemKey: i, ...item })));
    }
    await tx.insert(batVersions).values(
      versions.map((version, index) => ({
        advertId: advert.id,
        number: index + 1,
        state: version.state,
        createdBy: version.by,
        createdAt: new Date(version.createdAt),
        stateBy: version.by,
        stateAt: new Date(version.stateAt),
        storageKey: pdfKeys[index],
      })),
    );
  });
  context.logger.info({ advertId: advert.id }, 'demo proof seeded');
  return true;
}
