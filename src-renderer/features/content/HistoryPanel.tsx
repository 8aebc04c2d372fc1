import { useAtomValue, useSetAtom } from 'jotai';
import type { HistoryEntry } from '@shared/contract/content';
import { contentFieldLabel, historyActionLabel } from '@shared/messages/content-fields';
import { isAdvertReadOnly } from '@shared/rules/advert-screens/editor-sections';
import { formatDateTime } from '@shared/rules/dates';
import type { CallApi } from '../../bridge/api';
import { apiAtom } from '../../lib/bridge';
import { rolesAtom } from '../../lib/session';
import { useQuery } from '../../lib/use-query';
import { ConfirmButton } from '../../ui/ConfirmButton';
import type { EditorAtoms } from './editor-atoms';
import type { ContentApi } from './types';

/** Every recorded change of the item (beyond the spec, docs/content.md): who, when, which fields; restore a version. */
export function HistoryPanel(props: { atoms: EditorAtoms; makeApi: (call: CallApi) => ContentApi; itemId: number }) {
  const call = useAtomValue(apiAtom);
  const saved = useAtomValue(props.atoms.savedAtom);
  const restore = useSetAtom(props.atoms.restoreAtom);
  const roles = useAtomValue(rolesAtom);
  const history = props.makeApi(call).history;
  // The history is read again after each save (the saved version changes); a failure shows no entry.
  const { data } = useQuery([props.itemId, saved?.updatedAt], async (): Promise<HistoryEntry[]> => {
    const result = history ? await history(props.itemId) : null;
    return result?.ok ? result.data : [];
  });
  const entries = data ?? null;

  return (
    <div className="history" data-testid="history">
      <h2>Historique</h2>
      {entries === null ? (
        <p className="muted">Chargement…</p>
      ) : entries.length === 0 ? (
        <p className="muted">Aucune modification enregistrée</p>
      ) : (
        <ol>
          {entries.map((entry) => (
            <li key={entry.id} data-testid={`history-entry-${entry.id}`}>
              <strong>{formatDateTime(Math.floor(entry.at / 1000))}</strong> {entry.accountName} —{' '}
              <span data-testid="history-action" data-action={entry.action}>
                {historyActionLabel(entry.action)}
              </span>
              {entry.fields.length > 0 && <span className="muted"> ({entry.fields.map(contentFieldLabel).join(', ')})</span>}
              {!isAdvertReadOnly(roles) && entry.before && (
                <ConfirmButton
                  className="link"
                  message="Revenir à la version d'avant ce changement ?"
                  onConfirm={() => void restore(entry.id)}
                  testId={`history-restore-${entry.id}`}
                >
                  Restaurer
                </ConfirmButton>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
