import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { advertInputSchema, advertWritableShape, articleWritableShape, screenSchema, type TargetLink } from '@shared/contract/adverts';
import { CONTENT_FIELD_RULES, refusedFieldChange } from '@shared/contract/field-access';
import { MESSAGES, describeIssue } from '@shared/messages';
import { contentFieldLabel } from '@shared/messages/content-fields';
import { CONVERTIBLE_TYPES, epochSeconds } from '@shared/rules/advert-model';
import { parseAdvertCsvRow } from '@shared/rules/advert-screens/csv-import';
import { isOverdue, releaseDateDiff, revenueDelayImpact } from '@shared/rules/campaigns';
import { advertPublicationProblems, articlePublicationProblems, WARNING_SEPARATOR } from '@shared/rules/publication';
import { scheduleErrors, type Schedule } from '@shared/rules/schedule';
import type { ServerContext } from '../../context';
import { HttpError } from '../../errors';
import {
  actorOf,
  bumpContentVersion,
  defaultsOf,
  historyOf,
  insertItem,
  insertItems,
  linkedAudiences,
  loadItem,
  mergeInput,
  param,
  recordHistory,
  rows,
  setAudiences,
  TABLES,
  targetLinks,
  toModel,
  updateItem,
  type Actor,
  type AnyModel,
  type Executor,
  type Kind,
  type LinkedAudience,
  type Model,
} from './store';
import { legacyItems, migrateLegacy } from './legacy-layout';
import { linkNewAdvert, recordCampaignStart, relinkConvertedAdvert, unlinkAdvert } from './target-link';
import { staleVersion } from '../../db/versioning';

/** The caller; its roles decide the fields it may write (absent for the server's own writes: media, jobs). */
type Account = { id: number; roles?: readonly string[] } | null;

/** The first field of CONTENT_FIELD_RULES the caller may not write that differs from `before` to `after`, or null. */
function refusedField(account: Account, before: unknown, after: unknown): string | null {
  if (!account?.roles) return null;
  return refusedFieldChange(CONTENT_FIELD_RULES, account.roles, before, after)?.field ?? null;
}

/** 403 on a write changing a field the caller may not write (spec §6: ADMIN-only fields); unchanged, it passes. */
function checkFieldAccess(account: Account, before: unknown, after: unknown): void {
  const field = refusedField(account, before, after);
  if (field) throw new HttpError(403, fieldNotAllowed(field), {}, field);
}

const fieldNotAllowed = (field: string) => MESSAGES.fieldNotAllowed.replace('{field}', contentFieldLabel(field));

/** 400 at the field when a scheduling date set or changed is past, or the auto-stop is not after the auto-start. */
function checkSchedule(next: Schedule, saved: Schedule | null, now: number): void {
  const [error] = scheduleErrors(next, saved, now);
  if (error) throw new HttpError(400, error.message, {}, error.field);
}

/** Why the item may not be published (spec §5), joined as the editor shows warnings; null when it may. */
export function publicationError(kind: Kind, model: AnyModel, audiences: readonly LinkedAudience[]): string | null {
  const problems =
    kind === 'advert' ? advertPublicationProblems(model as unknown as Record<string, unknown>, audiences) : articlePublicationProblems(model);
  return problems.length ? problems.join(WARNING_SEPARATOR) : null;
}

/** A write of one item (see contentService): its lock, publication check and history. */
type ContentWriter = <K extends Kind>(
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
 * The 409 of a write or delete based on `basedOn` when the item is now at another version; nothing when it is not,
 * or when the caller named no version. Reads who made the newest change only when refusing.
 */
async function checkVersion(tx: Executor, kind: Kind, current: AnyModel, basedOn: number | undefined): Promise<void> {
  if (basedOn === undefined || current.version === basedOn) return;
  const [row] = await rows<{ name: string | null }>(
    tx,
    sql`SELECT a.name FROM ${TABLES[kind].items} i LEFT JOIN accounts a ON a.id = i.updated_by WHERE i.id = ${current.id}`,
  );
  throw staleVersion(
    kind,
    { version: current.version ?? 1, updatedAt: (current.updatedAt ?? 0) * 1000, editorName: row?.name ?? null },
    current as unknown as Record<string, unknown>,
  );
}

/** One writable property's value, checked against its schema; a 400 naming the property's label otherwise. */
function parsedProperty(kind: Kind, property: string, value: unknown): unknown {
  const shape = (kind === 'advert' ? advertWritableShape : articleWritableShape) as Record<string, z.ZodType>;
  const schema = shape[property];
  if (!schema) throw new HttpError(400, MESSAGES.unknownProperty, {}, 'prop');
  const parsed = schema.safeParse(value);
  if (!parsed.success || parsed.data === undefined) {
    const issue = parsed.success ? { code: 'invalid_type', path: [], message: 'Required', expected: 'nonoptional' } : parsed.error.issues[0];
    // Named by the property's label ('Source : …'), about the body's `value`.
    const described = describeIssue({ ...issue, path: [property, ...issue.path] } as never, 'body');
    throw new HttpError(400, described.errorMsg, {}, ['value', ...issue.path.map(String)].join('.'));
  }
  return parsed.data;
}

/**
 * Converts between advert and article (spec §4): the fields both share are carried over, the audience is
 * detached, the new item is unpublished, and the old one goes. Returns the new id.
 */
function convertItem(db: ServerContext['db'], now: () => number, from: Kind, id: number, account: Account): Promise<{ id: number }> {
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

/** CSV rows parsed with the §5 rules and checked like a create: the inputs, and every error with its spreadsheet row. */
function checkedImportRows(csvRows: Record<string, string>[], firstLine: number, now: number) {
  const errors: { line: number; message: string }[] = [];
  const inputs: Record<string, unknown>[] = [];
  csvRows.forEach((row, index) => {
    const line = firstLine + index;
    const parsed = parseAdvertCsvRow(row);
    const { id: _id, published: _published, ...fields } = parsed.value as Record<string, unknown>;
    for (const message of parsed.errors) errors.push({ line, message });
    if (!fields.name) errors.push({ line, message: MESSAGES.advertNameRequired });
    const checked = advertInputSchema.safeParse(fields);
    if (!checked.success)
      for (const issue of checked.error.issues)
        // The message names the field by its label already ('Vues max par utilisateur : 1000000 au plus').
        errors.push({ line, message: describeIssue(issue as never, 'body').errorMsg });
    else {
      for (const error of scheduleErrors(checked.data, null, now)) errors.push({ line, message: error.message });
      inputs.push(checked.data as Record<string, unknown>);
    }
  });
  return { errors, inputs };
}

/** The published flag and campaign dates a publication writes (see `publish`), the campaign's start on the target. */
async function publicationChange<K extends Kind>(
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
function storyOperations(write: ContentWriter, now: () => number) {
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

/**
 * The write of one item (see contentService): one transaction that locks it, checks publication when the result is
 * published, and records the change in the history.
 */
function transactionalWriter(db: ServerContext['db'], now: () => number): ContentWriter {
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
function itemCreator(db: ServerContext['db'], now: () => number) {
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
 * The operations adverts and articles share, written once for both kinds: every write runs in one transaction
 * that locks the item, checks publication when the result is published, and records the change in the history.
 */
export function contentService(context: ServerContext) {
  const { db } = context;
  const now = () => epochSeconds(context.clock.now());

  const write = transactionalWriter(db, now);
  const create = itemCreator(db, now);

  /**
   * CSV import (§2.1): every row parsed with the §5 rules and checked like a create, then all created in one
   * transaction. Any row error imports nothing and answers every error with its spreadsheet row.
   */
  async function importAdverts(csvRows: Record<string, string>[], firstLine: number, account: Account) {
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
  }

  return {
    now,
    importAdverts,
    legacyItems: () => legacyItems(db),
    migrateLegacy: (items: { kind: Kind; id: number }[], account: Account) => migrateLegacy(db, now, items, account),
    load: <K extends Kind>(kind: K, id: number) => loadItem(db, kind, id).then((found) => found.model),
    create,

    update: <K extends Kind>(kind: K, id: number, input: Record<string, unknown>, account: Account, audienceIds?: number[], basedOn?: number) =>
      write(
        kind,
        id,
        account,
        'update',
        async (current, tx, audiences) => {
          if (audienceIds) {
            await setAudiences(tx, kind, id, audienceIds);
            audiences.splice(0, audiences.length, ...((await linkedAudiences(tx, kind, [id])).get(id) ?? []));
          }
          return { next: mergeInput(current, input) };
        },
        basedOn,
      ),

    updateProperty: <K extends Kind>(kind: K, id: number, property: string, value: unknown, account: Account, basedOn?: number) => {
      const parsed = parsedProperty(kind, property, value);
      return write(
        kind,
        id,
        account,
        property === 'published' ? 'publish' : 'update',
        async (current) => ({ next: mergeInput(current, { [property]: parsed }) }),
        basedOn,
      );
    },

    /**
     * Spec §4: publish with updateDates starts the campaign (publishedAt now; overdue against the linked target's
     * initial quotation date needs one of the seven delay reasons); unpublish with updateDates ends it; without
     * updateDates only the published flag changes. The target's figures are the target's own: of the target props
     * sent, only the delay reason is taken, and the start keeps it with the delay's days and revenue impact on the
     * target (docs/projects.md, Targets). An advert without a target starts without a delay check.
     */
    publish: <K extends Kind>(
      kind: K,
      id: number,
      body: { publish: boolean; updateDates: boolean; target?: Partial<TargetLink> & { id?: number }; version?: number },
      account: Account,
    ) =>
      write(
        kind,
        id,
        account,
        body.publish ? (body.updateDates ? 'campaignStart' : 'publish') : body.updateDates ? 'campaignEnd' : 'unpublish',
        (current, tx) => publicationChange(current, tx, body, now()),
        body.version,
      ),

    remove: async (kind: Kind, id: number, account: Account, basedOn?: number) => {
      await db.transaction(async (tx) => {
        const actor = await actorOf(tx, account);
        const { model } = await loadItem(tx, kind, id, { lock: true });
        await checkVersion(tx, kind, model, basedOn);
        await tx.execute(sql`DELETE FROM ${TABLES[kind].items} WHERE id = ${id}`);
        if (kind === 'advert') await unlinkAdvert(tx, id);
        await bumpContentVersion(tx);
        await recordHistory(tx, kind, id, 'delete', actor, model, null);
      });
      return { ok: true as const };
    },

    duplicate: async <K extends Kind>(kind: K, id: number, input: Record<string, unknown> | undefined, account: Account): Promise<Model<K>> => {
      const { model, audiences } = await loadItem(db, kind, id);
      const copy = mergeInput({ ...model, name: `${model.name} (copie)`.slice(0, 300) }, input ?? {});
      // An article's own audience is not shared with its copy (the caller copies its criteria). Nor is the target:
      // an advert serves one action.
      const shared = await rows<{ id: number }>(
        db,
        sql`SELECT id FROM audiences WHERE id = ANY(${param(audiences.map((audience) => audience.id))}::int[]) AND article_id IS NULL`,
      );
      return create(kind, { ...copy, published: false }, account, { audienceIds: shared.map((audience) => audience.id), source: model });
    },

    attach: <K extends Kind>(kind: K, id: number, audienceIds: number[], account: Account) =>
      write(kind, id, account, 'attach', async (current, tx, audiences) => {
        await setAudiences(tx, kind, id, audienceIds);
        audiences.splice(0, audiences.length, ...((await linkedAudiences(tx, kind, [id])).get(id) ?? []));
        return { next: current };
      }),

    migrate: (from: Kind, id: number, account: Account) => convertItem(db, now, from, id, account),

    history: (kind: Kind, id: number) => historyOf(db, kind, id),

    /** Puts back the fields as they were before a recorded change; audiences and publication stay as they are. */
    restore: async <K extends Kind>(kind: K, id: number, entryId: number, account: Account): Promise<Model<K>> => {
      const [entry] = await rows<{ before: Record<string, unknown> | null }>(
        db,
        sql`SELECT before FROM content_history WHERE id = ${entryId} AND kind = ${kind} AND item_id = ${id}`,
      );
      if (!entry || !entry.before) throw new HttpError(404, MESSAGES.historyEntryNotFound);
      const { published: _published, ...fields } = entry.before;
      return write(kind, id, account, 'restore', async (current) => ({
        next: { ...mergeInput(current, fields), published: current.published } as Model<K>,
      }));
    },

    ...storyOperations(write, now),

    actor: (account: Account): Promise<Actor> => actorOf(db, account),

    /** Any other change of one item, with the same lock, publication check and history as every write (media uploads). */
    modify: write,
  };
}

function defaultStory() {
  return { logo: null, title: '', subtitle: '', position: null, forward: false, screens: [], isSeen: false, resetAt: null };
}

export type ContentService = ReturnType<typeof contentService>;
