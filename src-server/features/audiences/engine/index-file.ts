import { open, readFile, rename } from 'node:fs/promises';
import roaring from 'roaring';
import type { IndexBitmaps } from './bitmap-index';

/**
 * The audience index kept on disk between two runs of a server on PGlite (docs/audiences.md, "Start"): at a million
 * users PGlite rebuilds it in tens of seconds on one core, where reading it back takes about a second. The file only
 * holds bitmaps; whether it still matches the database is decided by the token the database keeps beside it
 * (engine.ts, restoreFrom), never by the file alone.
 *
 * Layout: a magic line, the header's length (uint32, little-endian), the header (JSON), then every bitmap in the
 * portable Roaring format, in the header's order.
 */
const { RoaringBitmap32 } = roaring;
type Bitmap = InstanceType<typeof RoaringBitmap32>;

const MAGIC = Buffer.from('backoffice-audience-index\n');
/** Moves when the layout or the meaning of a key changes: an older file is then rebuilt, never misread. */
export const INDEX_FILE_FORMAT = 1;

export interface IndexFileHeader {
  format: number;
  /** The value the database holds (audience_index_files) while this file is the index's current state. */
  token: string;
  /** The last migration applied when it was written: a migration since may have changed the data. */
  migration: string | null;
  /** The database's next transaction id once the token was written: any write since moves it. */
  nextTransaction: string;
  users: number;
  everyone: number;
  attributes: [key: string, bytes: number][];
  ladders: [key: string, bytes: number[]][];
}

/** Writes the bitmaps to `path` (through a temporary file renamed over it: a cut write leaves no half file). */
export async function writeIndexFile(
  path: string,
  bitmaps: IndexBitmaps,
  header: Pick<IndexFileHeader, 'token' | 'migration' | 'nextTransaction'>,
): Promise<number> {
  const everyone = bitmaps.everyone.serialize(true);
  const attributes = [...bitmaps.attributes].map(([key, bitmap]) => [key, bitmap.serialize(true)] as const);
  const full: IndexFileHeader = {
    format: INDEX_FILE_FORMAT,
    ...header,
    users: bitmaps.everyone.size,
    everyone: everyone.length,
    attributes: attributes.map(([key, bytes]) => [key, bytes.length]),
    ladders: [...bitmaps.ladders].map(([key, steps]) => [key, steps.map((step) => step.getSerializationSizeInBytes(true))]),
  };
  const headerBytes = Buffer.from(JSON.stringify(full));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headerBytes.length);
  const temporary = `${path}.${process.pid}.tmp`;
  const file = await open(temporary, 'w', 0o600);
  let written = 0;
  const write = async (bytes: Uint8Array) => {
    await file.write(bytes);
    written += bytes.length;
  };
  try {
    for (const bytes of [MAGIC, length, headerBytes, everyone]) await write(bytes);
    for (const [, bytes] of attributes) await write(bytes);
    // Ladders are serialized one step at a time: the largest part of the index is never copied whole.
    for (const steps of bitmaps.ladders.values()) for (const step of steps) await write(step.serialize(true));
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, path);
  return written;
}

export interface IndexFile {
  header: IndexFileHeader;
  bitmaps: IndexBitmaps;
}

/** Only the header (null for a missing or foreign file): enough to know whether the bitmaps are worth reading. */
export async function readIndexFileHeader(path: string): Promise<IndexFileHeader | null> {
  const file = await open(path, 'r').catch(() => null);
  if (!file) return null;
  try {
    const start = Buffer.alloc(MAGIC.length + 4);
    await file.read(start, 0, start.length, 0);
    if (!start.subarray(0, MAGIC.length).equals(MAGIC)) return null;
    const headerBytes = Buffer.alloc(start.readUInt32LE(MAGIC.length));
    await file.read(headerBytes, 0, headerBytes.length, start.length);
    const header = JSON.parse(headerBytes.toString('utf8')) as IndexFileHeader;
    return header.format === INDEX_FILE_FORMAT ? header : null;
  } catch {
    return null;
  } finally {
    await file.close();
  }
}

/** The whole file; a truncated or damaged one throws (the caller rebuilds from the database). */
export async function readIndexFile(path: string): Promise<IndexFile> {
  const bytes = await readFile(path);
  if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not an audience index file');
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  let at = MAGIC.length + 4;
  const header = JSON.parse(bytes.toString('utf8', at, at + headerLength)) as IndexFileHeader;
  at += headerLength;
  const next = (length: number): Bitmap => {
    if (at + length > bytes.length) throw new Error('audience index file cut short');
    const bitmap = RoaringBitmap32.deserialize(bytes.subarray(at, at + length), true);
    at += length;
    return bitmap;
  };
  const everyone = next(header.everyone);
  const attributes = new Map(header.attributes.map(([key, length]) => [key, next(length)] as const));
  const ladders = new Map(header.ladders.map(([key, lengths]) => [key, lengths.map(next)] as const));
  if (at !== bytes.length) throw new Error('audience index file longer than its header says');
  return { header, bitmaps: { everyone, attributes, ladders } };
}
