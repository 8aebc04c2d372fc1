import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { BatItemType, BatVersionState } from '@shared/rules/bat';
import { adverts } from './adverts';

/**
 * The preview captures of an advert's proof (adverts-articles.md §2.6 BAT screenshots: id, imgPath; §7 BAT upload).
 * The file is in the storage (under assets/bat/{advertId}); the row keeps its media URL.
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

/**
 * The proof itself (§2.6): one per advert, created with its first capture or page. `version` is bumped by every
 * write, so a save based on an older one is refused (409) instead of overwriting another member of staff's work.
 */
export const bats = pgTable('bats', {
  advertId: integer('advert_id')
    .primaryKey()
    .references(() => adverts.id, { onDelete: 'cascade' }),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: integer('updated_by'),
});

/** Its pages, numbered from 1 without gaps (a deleted page moves the next ones up). */
export const batPages = pgTable(
  'bat_pages',
  {
    id: serial('id').primaryKey(),
    advertId: integer('advert_id')
      .notNull()
      .references(() => bats.advertId, { onDelete: 'cascade' }),
    pageNumber: integer('page_number').notNull(),
  },
  (table) => [index('bat_pages_advert').on(table.advertId, table.pageNumber)],
);

/** A page's layers (§2.6 Layer: id, level, content), stacked by level. */
export const batLayers = pgTable(
  'bat_layers',
  {
    id: serial('id').primaryKey(),
    pageId: integer('page_id')
      .notNull()
      .references(() => batPages.id, { onDelete: 'cascade' }),
    level: integer('level').notNull(),
  },
  (table) => [index('bat_layers_page').on(table.pageId, table.level)],
);

/**
 * A layer's items (§2.6 Layer item: i, x, y, w, h, type, url, displayApp, content), in their order. Image and
 * text on the grid; an arrow's start in x, y and its end in w, h. `content` is a sanitised Lexical state.
 */
export const batItems = pgTable(
  'bat_items',
  {
    id: serial('id').primaryKey(),
    layerId: integer('layer_id')
      .notNull()
      .references(() => batLayers.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    itemKey: text('item_key').notNull(),
    x: integer('x').notNull(),
    y: integer('y').notNull(),
    w: integer('w').notNull(),
    h: integer('h').notNull(),
    type: text('type').$type<BatItemType>().notNull(),
    url: text('url'),
    displayApp: boolean('display_app').notNull().default(false),
    content: jsonb('content').$type<Record<string, unknown>>(),
  },
  (table) => [index('bat_items_layer').on(table.layerId, table.position)],
);

/**
 * Frozen versions of the proof (docs/content.md, BAT proofs, not in the spec): the exported PDF kept in the document storage, and
 * its approval (draft → sent → validated / changes_requested) with who and when.
 */
export const batVersions = pgTable(
  'bat_versions',
  {
    id: serial('id').primaryKey(),
    advertId: integer('advert_id')
      .notNull()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    state: text('state').$type<BatVersionState>().notNull().default('draft'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    stateBy: text('state_by').notNull(),
    stateAt: timestamp('state_at', { withTimezone: true }).notNull().defaultNow(),
    storageKey: text('storage_key').notNull(),
  },
  (table) => [uniqueIndex('bat_versions_number').on(table.advertId, table.number)],
);
