import { integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Media libraries (adverts-articles.md §3 Library: id, content[]): the media of one item — an advert's or an
 * article's stories pick from it. `label` names the kind of item, `ownerId` the item; `content` holds the media
 * URLs in the order they were added.
 */
export const mediaLibraries = pgTable(
  'media_libraries',
  {
    id: serial('id').primaryKey(),
    label: text('label').notNull(),
    ownerId: integer('owner_id').notNull(),
    content: jsonb('content').$type<string[]>().notNull().default([]),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('media_libraries_owner').on(table.label, table.ownerId)],
);
