import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { screenSchema, type TargetLink } from '@shared/contract/adverts';
import { MESSAGES } from '@shared/messages';
import { CONVERTIBLE_TYPES } from '@shared/rules/advert-model';
import { isOverdue, releaseDateDiff, revenueDelayImpact } from '@shared/rules/campaigns';
import type { ServerContext } from '../../context';
import { HttpError } from '../../errors';
import {
  actorOf,
  bumpContentVersion,
  defaultsOf,
  insertItem,
  insertItems,
  loadItem,
  mergeInput,
  recordHistory,
  setAudiences,
  TABLES,
  targetLinks,
  toModel,
  updateItem,
  type AnyModel,
  type Executor,
  type Kind,
  type LinkedAudience,
  type Model,
} from './store';
import {
  checkedImportRows,
  checkFieldAccess,
  checkSchedule,
  checkVersion,
  fieldNotAllowed,
  publicationError,
  refusedField,
  type Account,
} from './content-checks';
import { linkNewAdvert, recordCampaignStart, relinkConvertedAdvert, unlinkAdvert } from './target-link';

// The writes of the content service (see content.ts): one item's locked write, a create, a conversion, a
// publication, story screens and the CSV import; each checks what content-checks.ts says, and records its history.

/** A write of one item (see contentService): its lock, publication check and history. */
export type ContentWriter = <K extends Kind>(
  kind: K,
  id: number,
  account: Account,
  action: string,
  change: (
    current: Model<K>,
    tx: Executor,
    audiences: LinkedAudience[],
  ) => Promise<{ next: Model<K>; publishedAt?: number | null; unpublishedAt?: number | null }>,
  /** The version the caller's change was based on; another one is a 409 (docs/architecture.md). */
  basedOn?: number,
) => Promise<Model<K>>;

/**
 * The write of one item (see contentService): one transaction that locks it, checks publication when the result is
 * published, and records the change in the history.
 */
export function transactionalWriter(db: ServerContext['db'], now: () => number): ContentWriter {
  return async function write(kind, id, account, action, change, basedOn) {
    return db.transaction(async (tx) => {
      const actor = await actorOf(tx, account);
      const { model: current, audiences } = await loadItem(tx, kind, id, { lock: true });
      await checkVersion(tx, kind, current, basedOn);
      const { next, publishedAt, unpublishedAt } = await change(current, tx, audiences);
      checkFieldAccess(account, current, next);
      checkSchedule(next, current, now());
      if (next.published) {
        const error = publicationError(kind, next, audiences);
        if (error) throw new HttpError(400, error);
      }
      const row = await updateItem(tx, kind, next, { updatedAt: now(), updatedBy: account?.id ?? null, publishedAt, unpublishedAt });
      // The saved item from the row the UPDATE answers and the audiences as the change left them, not read again;
      // only a campaign start or end (publication dates) writes the target link, read again then.
      const link =
        publishedAt === undefined && unpublishedAt === undefined ? current._$target : ((await targetLinks(tx, kind, [id])).get(id) ?? null);
      const saved = toModel(kind, row, audiences, link);
      await recordHistory(tx, kind, id, action, actor, current, saved);
      return saved;
    });
  };
}

/** The creation of one item, unpublished, with its history entry. */
export function itemCreator(db: ServerContext['db'], now: () => number) {
  /**
   * `targetId` (adverts): the project target the advert is created from, linked in the same transaction.
   * `source`: the item copied (duplicate), whose values the copy may keep whoever copies it.
   */
  return async function create<K extends Kind>(
    kind: K,
    input: Record<string, unknown>,
    account: Account,
    extra: { targetId?: number; audienceIds?: number[]; source?: Model<K> } = {},
  ): Promise<Model<K>> {
    return db.transaction(async (tx) => {
      const actor = await actorOf(tx, account);
      const base = { ...defaultsOf(kind), id: 0 } as unknown as Model<K>;
      // Created unpublished, whatever was sent (spec §4).
      const model = { ...mergeInput(base, input), published: false } as Model<K>;
      checkFieldAccess(account, extra.source ?? base, model);
      // A copy keeps its source's dates as they are; new ones are checked.
      checkSchedule(model, extra.source ?? null, now());
      const id = await insertItem(tx, kind, model, now());
      if (extra.targetId !== undefined) await linkNewAdvert(tx, extra.targetId, id);
      if (extra.audienceIds) await setAudiences(tx, kind, id, extra.audienceIds);
      const { model: saved } = await loadItem(tx, kind, id);
      await recordHistory(tx, kind, id, 'create', actor, null, saved);
      return saved;
    });
  };
}

/**
 * CSV import (§2.1): every row parsed with the §5 rules and checked like a create, then all created in one
 * transaction. Any row error imports nothing and answers every error with its spreadsheet row.
 */
export function advertImporter(db: ServerContext['db'], now: () => number) {
  return async function importAdverts(csvRows: Record<string, string>[], firstLine: number, account: Account) {
    const { errors, inputs } = checkedImportRows(csvRows, firstLine, now());
    if (errors.length) return { imported: 0, ids: [], errors };
    const base = { ...defaultsOf('advert'), id: 0 } as unknown as Model<'advert'>;
    const models = inputs.map((input) => ({ ...mergeInput(base, input), published: false }) as Model<'advert'>);
    // Every row is valid here, so row i is line firstLine + i.
    models.forEach((model, index) => {
      const field = refusedField(account, base, model);
      if (field) errors.push({ line: firstLine + index, message: fieldNotAllowed(field) });
    });
    if (errors.length) return { imported: 0, ids: [], errors };
    const ids = await db.transaction(async (tx) => insertItems(tx, 'advert', models, now(), await actorOf(tx, account)));
    return { imported: ids.length, ids, errors: [] };
  };
}

/**
 * Converts between advert and article (spec §4): the fields both share are carried over, the audience is
 * detached, the new item is unpublished, and the old one goes. Returns the new id.
 */
export function convertItem(db: ServerContext['db'], now: () => number, from: Kind, id: number, account: Account): Promise<{ id: number }> {
  return db.transaction(async (tx) => {
    const to: Kind = from === 'advert' ? 'article' : 'advert';
    const actor = await actorOf(tx, account);
    const { model } = await loadItem(tx, from, id, { lock: true });
    if (!(CONVERTIBLE_TYPES as readonly (string | null)[]).includes(model.type)) throw new HttpError(400, MESSAGES.notConvertible, {}, 'type');
    const defaults = { ...defaultsOf(to), id: 0 } as unknown as AnyModel;
    const carried = Object.fromEntries(Object.entries(model).filter(([key]) => key in defaults));
    const converted = { ...mergeInput(defaults, carried), published: false } as AnyModel;
    checkFieldAccess(account, model, converted);
    // The target goes with the item: an article keeps it as its own target id; an advert as its target's advert.
    const newId = await insertItem(tx, to, converted, now(), { targetId: model.targetId });
    if (from === 'advert') await unlinkAdvert(tx, id);
    else if (model.targetId !== null) await relinkConvertedAdvert(tx, model.targetId, newId);
    const { model: saved } = await loadItem(tx, to, newId);
    await recordHistory(tx, to, newId, 'create', actor, null, saved);
    await tx.execute(sql`DELETE FROM ${TABLES[from].items} WHERE id = ${id}`);
    await bumpContentVersion(tx);
    await recordHistory(tx, from, id, 'migrate', actor, model, null);
    return { id: newId };
  });
}

/** Deletes one item (an advert's target forgets it), based on the version the caller read, with its history entry. */
export function removeItem(db: ServerContext['db'], kind: Kind, id: number, account: Account, basedOn?: number): Promise<void> {
  return db.transaction(async (tx) => {
    const actor = await actorOf(tx, account);
    const { model } = await loadItem(tx, kind, id, { lock: true });
    await checkVersion(tx, kind, model, basedOn);
    await tx.execute(sql`DELETE FROM ${TABLES[kind].items} WHERE id = ${id}`);
    if (kind === 'advert') await unlinkAdvert(tx, id);
    await bumpContentVersion(tx);
    await recordHistory(tx, kind, id, 'delete', actor, model, null);
  });
}

/** The published flag and campaign dates a publication writes (see `publish`), the campaign's start on the target. */
export async function publicationChange<K extends Kind>(
  current: Model<K>,
  tx: Executor,
  body: { publish: boolean; updateDates: boolean; target?: Partial<TargetLink> & { id?: number } },
  at: number,
): Promise<{ next: Model<K>; publishedAt?: number | null; unpublishedAt?: number | null }> {
  const next = { ...current, published: body.publish } as Model<K>;
  if (!body.updateDates) return { next };
  if (!body.publish) return { next, unpublishedAt: at };
  const link = current._$target;
  if (link?.id == null) return { next, publishedAt: at, unpublishedAt: null };
  const delayReason = body.target?.delayReason !== undefined ? body.target.delayReason : link.delayReason;
  if (isOverdue(link.initialQuotationDate, at) && !delayReason) throw new HttpError(400, MESSAGES.delayReasonRequired, {}, 'target.delayReason');
  const diff = releaseDateDiff(link.initialQuotationDate, at);
  const impact = revenueDelayImpact({ revenue: link.revenue, delayDays: diff, startDate: at, endDate: link.endDate });
  await recordCampaignStart(tx, link.id, {
    delayReason,
    releaseDateDiff: diff,
    revenueDelayImpact: impact == null ? null : Math.round(impact * 100) / 100,
  });
  return { next, publishedAt: at, unpublishedAt: null };
}

/** The screens of a story advert, and the reset that shows it again. */
export function storyOperations(write: ContentWriter, now: () => number) {
  return {
    addScreen: <K extends Kind>(kind: K, id: number, screen: Record<string, unknown> | undefined, account: Account, basedOn?: number) =>
      write(
        kind,
        id,
        account,
        'update',
        async (current) => {
          if (current.type !== 'story') throw new HttpError(400, MESSAGES.notAStory, {}, 'type');
          const story = current.story ?? defaultStory();
          const nextId = story.screens.reduce((max, item) => Math.max(max, item.id), 0) + 1;
          const added = screenSchema.parse({ ...screen, id: nextId, uuid: randomUUID(), position: story.screens.length });
          return { next: { ...current, story: { ...story, screens: [...story.screens, added] } } };
        },
        basedOn,
      ),

    removeScreen: <K extends Kind>(kind: K, id: number, screenId: number, account: Account, basedOn?: number) =>
      write(
        kind,
        id,
        account,
        'update',
        async (current) => {
          const story = current.story;
          if (!story || !story.screens.some((screen) => screen.id === screenId)) throw new HttpError(404, MESSAGES.screenNotFound);
          const screens = story.screens.filter((screen) => screen.id !== screenId).map((screen, position) => ({ ...screen, position }));
          return { next: { ...current, story: { ...story, screens } } };
        },
        basedOn,
      ),

    /** The story shows again to users who saw it: views before the reset no longer count (decisioning). */
    resetStory: async (id: number, account: Account) => {
      await write('advert', id, account, 'storyReset', async (current) => {
        if (current.type !== 'story') throw new HttpError(400, MESSAGES.notAStory, {}, 'type');
        return { next: { ...current, story: { ...(current.story ?? defaultStory()), isSeen: false, resetAt: now() } } };
      });
      return { message: MESSAGES.storyReset };
    },
  };
}

function defaultStory() {
  return { logo: null, title: '', subtitle: '', position: null, forward: false, screens: [], isSeen: false, resetAt: null };
}
