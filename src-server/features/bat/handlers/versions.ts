import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { contract, type MultipartSpec } from '@shared/contract';
import { BAT_MESSAGES as M } from '@shared/messages/bat';
import { canMoveVersion } from '@shared/rules/bat';
import { DOCUMENTS_ROOT } from '@shared/rules/storage';
import type { ServerContext } from '../../../context';
import { accounts, batVersions } from '../../../db/schema';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import { receiveFile } from '../../../storage/multipart';
import { advertExists, loadSummaryRows, toVersion, type Db, type VersionRow } from '../queries';

type VersionHandlers = Pick<Handlers, 'bat.freezeVersion' | 'bat.setVersionState' | 'bat.summary'>;

/** Where a frozen version's PDF lives: the client documents of the storage browser. */
export const versionFolder = (advertId: number) => `${DOCUMENTS_ROOT}/bat/${advertId}`;

async function accountName(db: Db, id: number): Promise<string> {
  const [row] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, id));
  return row?.name ?? `#${id}`;
}

/**
 * Frozen versions of the proof with their approval (docs/content.md, BAT proofs, beyond the spec): the exported PDF is kept in the
 * document storage, numbered per advert; its state moves draft → sent → validated / changes_requested, with who
 * and when.
 */
export function versionHandlers(context: ServerContext, versionUrl: (row: VersionRow) => string): VersionHandlers {
  const { db, storage } = context;
  return {
    'bat.freezeVersion': async ({ request, account }) =>
      receiveFile<{ advertId: number }, { webpath: string; version: ReturnType<typeof toVersion> }>(
        request,
        contract['bat.freezeVersion'].multipart as MultipartSpec,
        async (file) => {
          const { advertId } = file.fields;
          if (!(await advertExists(db, advertId))) {
            file.body.destroy();
            throw new HttpError(404, M.advertNotFound);
          }
          const [{ next }] = await db
            .select({ next: sql<number>`coalesce(max(${batVersions.number}), 0)::int + 1` })
            .from(batVersions)
            .where(eq(batVersions.advertId, advertId));
          const key = `${versionFolder(advertId)}/bat-v${next}-${randomBytes(3).toString('hex')}.pdf`;
          await storage.put(key, file.body, 'application/pdf');
          try {
            const name = await accountName(db, account!.id);
            const now = context.clock.now();
            const [row] = await db
              .insert(batVersions)
              .values({ advertId, number: next, state: 'draft', createdBy: name, createdAt: now, stateBy: name, stateAt: now, storageKey: key })
              .returning();
            const version = toVersion(row, versionUrl(row));
            return { webpath: version.pdfUrl, version };
          } catch (error) {
            await storage.delete(key);
            // Another export took this number meanwhile.
            if (String((error as { code?: string; cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code) === '23505') {
              throw new HttpError(409, M.stale);
            }
            throw error;
          }
        },
      ),

    'bat.summary': async ({ params }) => {
      const { advertId } = params;
      if (!(await advertExists(db, advertId))) throw new HttpError(404, M.advertNotFound);
      const { pages, latest } = await loadSummaryRows(db, advertId);
      return { advertId, pages, latest: latest ? toVersion(latest, versionUrl(latest)) : null };
    },

    'bat.setVersionState': async ({ params, body, account }) => {
      const [row] = await db
        .select()
        .from(batVersions)
        .where(and(eq(batVersions.advertId, params.advertId), eq(batVersions.id, params.versionId)));
      if (!row) throw new HttpError(404, M.versionMissing);
      if (!canMoveVersion(row.state, body.state)) throw new HttpError(409, M.versionMove(row.state, body.state));
      const name = await accountName(db, account!.id);
      const [updated] = await db
        .update(batVersions)
        .set({ state: body.state, stateBy: name, stateAt: context.clock.now() })
        // Only from the state it was read in: two clicks at once never both move it.
        .where(and(eq(batVersions.id, row.id), eq(batVersions.state, row.state)))
        .returning();
      if (!updated) throw new HttpError(409, M.versionMove(row.state, body.state));
      return toVersion(updated, versionUrl(updated));
    },
  };
}
