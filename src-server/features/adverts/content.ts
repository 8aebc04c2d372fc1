import type { TargetLink } from '@shared/contract/adverts';
import { MESSAGES } from '@shared/messages';
import { epochSeconds } from '@shared/rules/advert-model';
import type { ServerContext } from '../../context';
import { HttpError } from '../../errors';
import { linkedAudiences, loadItem, mergeInput, setAudiences, type Kind, type Model } from './store';
import { parsedProperty, type Account } from './content-checks';
import { contentReads, fieldsBefore, sharedAudienceIds } from './content-reads';
import { advertImporter, convertItem, itemCreator, publicationChange, removeItem, storyOperations, transactionalWriter } from './content-writes';
import { migrateLegacy } from './legacy-layout';

/**
 * The operations adverts and articles share, written once for both kinds: every write runs in one transaction
 * that locks the item, checks publication when the result is published, and records the change in the history.
 */
export function contentService(context: ServerContext) {
  const { db } = context;
  const now = () => epochSeconds(context.clock.now());

  const write = transactionalWriter(db, now);
  const create = itemCreator(db, now);

  const importAdverts = advertImporter(db, now);

  return {
    now,
    ...contentReads(db),
    importAdverts,
    migrateLegacy: (items: { kind: Kind; id: number }[], account: Account) => migrateLegacy(db, now, items, account),
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
      await removeItem(db, kind, id, account, basedOn);
      return { ok: true as const };
    },

    duplicate: async <K extends Kind>(kind: K, id: number, input: Record<string, unknown> | undefined, account: Account): Promise<Model<K>> => {
      const { model, audiences } = await loadItem(db, kind, id);
      const copy = mergeInput({ ...model, name: `${model.name} (copie)`.slice(0, 300) }, input ?? {});
      // An article's own audience is not shared with its copy (the caller copies its criteria). Nor is the target:
      // an advert serves one action.
      const shared = await sharedAudienceIds(db, audiences);
      return create(kind, { ...copy, published: false }, account, { audienceIds: shared, source: model });
    },

    attach: <K extends Kind>(kind: K, id: number, audienceIds: number[], account: Account) =>
      write(kind, id, account, 'attach', async (current, tx, audiences) => {
        await setAudiences(tx, kind, id, audienceIds);
        audiences.splice(0, audiences.length, ...((await linkedAudiences(tx, kind, [id])).get(id) ?? []));
        return { next: current };
      }),

    migrate: (from: Kind, id: number, account: Account) => convertItem(db, now, from, id, account),

    /** Puts back the fields as they were before a recorded change; audiences and publication stay as they are. */
    restore: async <K extends Kind>(kind: K, id: number, entryId: number, account: Account): Promise<Model<K>> => {
      const before = await fieldsBefore(db, kind, id, entryId);
      if (!before) throw new HttpError(404, MESSAGES.historyEntryNotFound);
      const { published: _published, ...fields } = before;
      return write(kind, id, account, 'restore', async (current) => ({
        next: { ...mergeInput(current, fields), published: current.published } as Model<K>,
      }));
    },

    ...storyOperations(write, now),

    /** Any other change of one item, with the same lock, publication check and history as every write (media uploads). */
    modify: write,
  };
}

export type ContentService = ReturnType<typeof contentService>;
