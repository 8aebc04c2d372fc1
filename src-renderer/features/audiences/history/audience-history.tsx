import { atom, useAtomValue, useSetAtom, type PrimitiveAtom } from 'jotai';
import { useEffect, useMemo } from 'react';
import type { HistoryEntry } from '@shared/contract/audience-history';
import { AUDIENCE_HISTORY_NOTICES, withText } from '@shared/messages';
import { HISTORY_ACTION_LABELS, describeChanges } from '@shared/rules/audience-history';
import { audienceRestorers } from '@shared/access-rules';
import { isAllowed } from '@shared/roles';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { sessionAtom } from '../../../lib/session';
import { useQuery } from '../../../lib/use-query';
import './audience-history.css';

/** The history of an audience or a group (docs/audience-history.md), shared by the audience and group editors. */
export interface HistorySubject {
  kind: 'audience' | 'group';
  id: number;
}

const HISTORY_LIMIT = 50;

/** One panel's atoms: its entries, its total, loading and restoring. Made per subject, labelled by its kind. */
export function historyAtoms(subject: HistorySubject) {
  // One set per panel; the label names the kind (ids are not letters, see the atoms test).
  const label = `history.${subject.kind}`;
  const entries = atom<HistoryEntry[] | null>(null) as PrimitiveAtom<HistoryEntry[] | null>;
  entries.debugLabel = `${label}.entries`;
  const total = atom(0);
  total.debugLabel = `${label}.total`;
  // A read the panel's query replaced (a newer reload, the panel gone) writes nothing over the newer one.
  const load = atom(null, async (get, set, signal?: AbortSignal) => {
    const call = get(apiAtom);
    const result =
      subject.kind === 'audience'
        ? await call('audienceHistory.audience', { params: { id: subject.id }, query: { limit: HISTORY_LIMIT } })
        : await call('audienceHistory.group', { params: { id: subject.id }, query: { limit: HISTORY_LIMIT } });
    if (signal?.aborted) return;
    if (!result.ok) {
      set(entries, []);
      return set(raiseNoticeAtom, withText(AUDIENCE_HISTORY_NOTICES.failed, result.errorMsg));
    }
    set(entries, result.data.items);
    set(total, result.data.total);
  });
  load.debugLabel = `${label}.load`;
  const restore = atom(null, async (get, set): Promise<boolean> => {
    const result = await get(apiAtom)('audienceHistory.restore', { params: { id: subject.id } });
    if (!result.ok) {
      set(raiseNoticeAtom, withText(AUDIENCE_HISTORY_NOTICES.failed, result.errorMsg));
      return false;
    }
    set(raiseNoticeAtom, AUDIENCE_HISTORY_NOTICES.restored(result.data.name));
    await set(load);
    return true;
  });
  restore.debugLabel = `${label}.restore`;
  return { entries, total, load, restore };
}

const formatter = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'medium' });

/**
 * Who changed what and when, newest first. `reloadKey` reloads it (after a save). An ADMIN sees, when the last
 * entry is a deletion, a button that restores the audience as it was (`onRestored` then, e.g. to reload it).
 */
export function HistoryPanel(props: { subject: HistorySubject; reloadKey?: unknown; onRestored?: () => void }) {
  const { kind, id } = props.subject;
  const atoms = useMemo(() => historyAtoms({ kind, id }), [kind, id]);
  const entries = useAtomValue(atoms.entries);
  const total = useAtomValue(atoms.total);
  const load = useSetAtom(atoms.load);
  const restore = useSetAtom(atoms.restore);
  const session = useAtomValue(sessionAtom);
  const isAdmin = isAllowed(audienceRestorers, session?.roles ?? null);

  useQuery(['audienceHistory', kind, id, props.reloadKey], (signal) => load(signal));

  const deleted = kind === 'audience' && entries?.[0]?.action === 'delete';
  return (
    <aside className="history-panel" aria-label="Historique" data-testid="history-panel">
      <h3>Historique</h3>
      {deleted && isAdmin && (
        <button
          type="button"
          className="primary"
          data-testid="history-restore"
          onClick={async () => {
            if (await restore()) props.onRestored?.();
          }}
        >
          Restaurer l'audience
        </button>
      )}
      {entries === null ? (
        <p className="count">Chargement…</p>
      ) : entries.length === 0 ? (
        <p className="count">Aucune modification enregistrée</p>
      ) : (
        <ol className="history-entries">
          {entries.map((entry) => (
            <li key={entry.id} data-testid="history-entry" data-action={entry.action}>
              <div className="history-head">
                <strong>{HISTORY_ACTION_LABELS[entry.action]}</strong>
                <span className="history-who">{entry.accountName || '—'}</span>
                <time dateTime={new Date(entry.at).toISOString()}>{formatter.format(entry.at)}</time>
              </div>
              <ul className="history-changes">
                {describeChanges(entry.changes).map((line, index) => (
                  <li key={index}>{line}</li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
      {entries !== null && total > entries.length && <p className="count">{`${entries.length} dernières modifications sur ${total}`}</p>}
    </aside>
  );
}

// ---- deleted audiences (ADMIN) -------------------------------------------------------------------------------------

export const deletedAudiencesAtom = atom<HistoryEntry[] | null>(null);
deletedAudiencesAtom.debugLabel = 'history.deletedAudiences';

export const loadDeletedAudiencesAtom = atom(null, async (get, set) => {
  const result = await get(apiAtom)('audienceHistory.deleted', { query: { limit: HISTORY_LIMIT } });
  if (!result.ok) {
    set(deletedAudiencesAtom, []);
    return set(raiseNoticeAtom, withText(AUDIENCE_HISTORY_NOTICES.failed, result.errorMsg));
  }
  set(deletedAudiencesAtom, result.data.items);
});
loadDeletedAudiencesAtom.debugLabel = 'history.loadDeletedAudiences';

/** Restores a deleted audience; answers its id, or null when refused (the error raised as a toast). */
export const restoreDeletedAudienceAtom = atom(null, async (get, set, audienceId: number): Promise<number | null> => {
  const result = await get(apiAtom)('audienceHistory.restore', { params: { id: audienceId } });
  if (!result.ok) {
    set(raiseNoticeAtom, withText(AUDIENCE_HISTORY_NOTICES.failed, result.errorMsg));
    return null;
  }
  set(raiseNoticeAtom, AUDIENCE_HISTORY_NOTICES.restored(result.data.name));
  set(
    deletedAudiencesAtom,
    (get(deletedAudiencesAtom) ?? []).filter((entry) => entry.subjectId !== audienceId),
  );
  return result.data.id;
});
restoreDeletedAudienceAtom.debugLabel = 'history.restoreDeletedAudience';

/**
 * The audiences deleted and not restored since, newest first, each with who deleted it and when and a Restaurer
 * button (ADMIN: the server refuses the others). `onRestored` gets the audience's id (to open it).
 */
export function DeletedAudiencesPanel(props: { onRestored?: (audienceId: number) => void }) {
  const entries = useAtomValue(deletedAudiencesAtom);
  const load = useSetAtom(loadDeletedAudiencesAtom);
  const restore = useSetAtom(restoreDeletedAudienceAtom);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <aside className="history-panel" aria-label="Audiences supprimées" data-testid="deleted-audiences">
      <h3>Audiences supprimées</h3>
      {entries === null ? (
        <p className="count">Chargement…</p>
      ) : entries.length === 0 ? (
        <p className="count">Aucune audience supprimée</p>
      ) : (
        <ol className="history-entries">
          {entries.map((entry) => (
            <li key={entry.id} data-testid="deleted-audience" data-audience={entry.subjectId}>
              <div className="history-head">
                <strong>{entry.name}</strong>
                <span className="history-who">{entry.accountName || '—'}</span>
                <time dateTime={new Date(entry.at).toISOString()}>{formatter.format(entry.at)}</time>
                <button
                  type="button"
                  className="link"
                  onClick={async () => {
                    const id = await restore(entry.subjectId);
                    if (id !== null) props.onRestored?.(id);
                  }}
                  data-testid={`deleted-audience-restore-${entry.subjectId}`}
                >
                  Restaurer
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
    </aside>
  );
}
