import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { contract, type MultipartSpec } from '@shared/contract';
import type { Library } from '@shared/contract/storage';
import { STORAGE_MESSAGES } from '@shared/messages/storage';
import { ADVERTS_ROOT, LIBRARY_ROOT, checkKey, isWithin } from '@shared/rules/storage';
import type { ServerContext } from '../../../context';
import type { Database } from '../../../db/client';
import { mediaLibraries } from '../../../db/schema';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import type { StorageAdapter } from '../../../storage/adapter';
import { isDocumentKey } from '../../../storage/document-urls';
import { MEDIA_PREFIX, encodeKey, keyOfMediaUrl, mediaUrl } from '../../../storage/media';
import { receiveFile } from '../../../storage/multipart';

type LibraryHandlers = Pick<Handlers, 'library.get' | 'library.put' | 'library.deleteItem' | 'library.upload' | 'storage.deleteAttachment'>;

const toLibrary = (row: typeof mediaLibraries.$inferSelect): Library => ({
  id: row.id,
  label: row.label as Library['label'],
  ownerId: row.ownerId,
  content: row.content,
});

/** Adverts named in a 'media in use' refusal; the others are counted. */
const USERS_NAMED = 10;

/**
 * The adverts whose content shows the media of `key` (docs/content.md, media in use): its URL path (/cdn/<key encoded>) in the
 * advert's `data`, followed by the end of the URL ('?d=…', '#', or the end of the JSON string), whatever the host
 * before it. The first 10 by id, and how many in all.
 */
export async function advertsUsingMedia(db: Database, key: string): Promise<{ adverts: { id: number; name: string }[]; total: number }> {
  const path = `${MEDIA_PREFIX}${encodeKey(key)}`;
  const uses = sql`(strpos(data::text, ${`${path}?`}) > 0 OR strpos(data::text, ${`${path}"`}) > 0 OR strpos(data::text, ${`${path}#`}) > 0)`;
  const found = (await db.execute(
    sql`SELECT id, name, count(*) OVER ()::int AS total FROM adverts WHERE ${uses} ORDER BY id LIMIT ${USERS_NAMED}`,
  )) as unknown as {
    rows: { id: number; name: string; total: number }[];
  };
  const list = found.rows;
  return { adverts: list.map(({ id, name }) => ({ id, name })), total: list[0]?.total ?? 0 };
}

/**
 * Media libraries and advert media (adverts-articles.md §3 Library, §5 "Deleting an image", §7 Uploads): a media
 * URL is ours when it names a key of this server's storage; only those are kept in a library or deleted.
 */
export function libraryHandlers(context: ServerContext, storage: StorageAdapter): LibraryHandlers {
  const { db } = context;
  const publicUrl = context.config.storage?.publicUrl;

  /** The storage key of one of our media URLs under `roots`, or the spec's refusal. */
  const ourKey = (url: string, roots: string[]): string => {
    const key = keyOfMediaUrl(url, publicUrl);
    if (key === null || !checkKey(key).ok || !roots.some((root) => isWithin(key, root) && key !== root)) {
      throw new HttpError(400, STORAGE_MESSAGES.cannotDeletePreview);
    }
    return key;
  };

  const byId = async (id: number) => {
    const [row] = await db.select().from(mediaLibraries).where(eq(mediaLibraries.id, id));
    if (!row) throw new HttpError(404, STORAGE_MESSAGES.libraryNotFound);
    return row;
  };

  return {
    'library.get': async ({ params }) => {
      await db.insert(mediaLibraries).values({ label: params.label, ownerId: params.id }).onConflictDoNothing();
      const [row] = await db
        .select()
        .from(mediaLibraries)
        .where(and(eq(mediaLibraries.label, params.label), eq(mediaLibraries.ownerId, params.id)));
      return toLibrary(row);
    },

    'library.put': async ({ params, body }) => {
      for (const url of body.content) {
        const key = keyOfMediaUrl(url, publicUrl);
        // A client document is no media of the app: its link is signed and expires (storage/document-urls.ts).
        if (key === null || !checkKey(key).ok || isDocumentKey(key)) throw new HttpError(400, STORAGE_MESSAGES.notProductMedia, {}, 'content');
      }
      const content = [...new Set(body.content)];
      const [row] = await db
        .insert(mediaLibraries)
        .values({ label: params.label, ownerId: params.id, content })
        .onConflictDoUpdate({ target: [mediaLibraries.label, mediaLibraries.ownerId], set: { content, updatedAt: sql`now()` } })
        .returning();
      return toLibrary(row);
    },

    'library.deleteItem': async ({ params, body }) => {
      const library = await byId(params.id);
      const key = ourKey(body.item, [LIBRARY_ROOT, ADVERTS_ROOT]);
      const remaining = library.content.filter((url) => keyOfMediaUrl(url, publicUrl) !== key);
      if (remaining.length === library.content.length) throw new HttpError(404, STORAGE_MESSAGES.mediaNotInLibrary);
      // Its file goes: adverts still showing it would show a broken image. They are named, and the delete waits for
      // the user's confirmation (`force`) rather than refusing: the user may be replacing it in those adverts next.
      if (isWithin(key, LIBRARY_ROOT) && !body.force) {
        const users = await advertsUsingMedia(db, key);
        if (users.total > 0) throw new HttpError(409, STORAGE_MESSAGES.mediaUsedByAdverts(users.adverts, users.total));
      }
      const [row] = await db
        .update(mediaLibraries)
        .set({ content: remaining, updatedAt: sql`now()` })
        .where(eq(mediaLibraries.id, library.id))
        .returning();
      // The library's own uploads go with it; an advert's media may still be shown by the advert.
      if (isWithin(key, LIBRARY_ROOT)) await storage.delete(key);
      return toLibrary(row);
    },

    'library.upload': async ({ request }) =>
      receiveFile<{ libraryId: number }, { webpaths: string[]; library: Library }>(
        request,
        contract['library.upload'].multipart as MultipartSpec,
        async (file) => {
          await byId(file.fields.libraryId);
          // A short random prefix: two files of the same name never replace each other.
          const key = `${LIBRARY_ROOT}/${file.fields.libraryId}/${randomBytes(4).toString('hex')}-${file.fileName}`;
          if (!checkKey(key).ok) throw new HttpError(400, STORAGE_MESSAGES.unsafeKey);
          const url = mediaUrl(publicUrl, await storage.put(key, file.body, file.contentType));
          const [row] = await db
            .update(mediaLibraries)
            .set({ content: sql`${mediaLibraries.content} || ${JSON.stringify([url])}::jsonb`, updatedAt: sql`now()` })
            .where(eq(mediaLibraries.id, file.fields.libraryId))
            .returning();
          if (!row) {
            // The library went away while the file arrived: nothing of it is kept.
            await storage.delete(key);
            throw new HttpError(404, STORAGE_MESSAGES.libraryNotFound);
          }
          return { webpaths: [url], library: toLibrary(row) };
        },
      ),

    'storage.deleteAttachment': async ({ body }) => {
      const key = ourKey(body.filePath, [ADVERTS_ROOT, LIBRARY_ROOT]);
      if (!(await storage.delete(key))) throw new HttpError(404, STORAGE_MESSAGES.fileNotFound);
      return { deleted: key };
    },
  };
}
