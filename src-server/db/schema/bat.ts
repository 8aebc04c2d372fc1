import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { adverts } from './adverts';

/**
 * The preview captures of an advert's proof (adverts-articles.md §2.6 BAT screenshots: id, imgPath; §7 BAT upload).
 * The file is in the storage (under assets/bat/{advertId}); the row keeps its media URL. The proof's pages and
 * layers are a later issue.
 */
export const batScreenshots = pgTable(
  'bat_screenshots',
  {
    id: serial('id').primaryKey(),
    advertId: integer('advert_id')
      .notNull()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    webpath: text('webpath').notNull(),
    /** The storage key, so the file can go with the row. */
    storageKey: text('storage_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('bat_screenshots_advert').on(table.advertId, table.createdAt)],
);
