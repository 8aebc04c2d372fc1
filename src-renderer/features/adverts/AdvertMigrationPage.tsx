import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { LegacyItem } from '@shared/contract/adverts';
import { ADVERT_SCREEN_MESSAGES as M, ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { isAdvertReadOnly } from '@shared/rules/advert-screens/editor-sections';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { dataOf } from '../../lib/query';
import { rolesAtom } from '../../lib/session';
import { useQuery } from '../../lib/use-query';

const editPath = (item: LegacyItem) => (item.kind === 'advert' ? `/adverts/edit/${item.id}` : `/articles/edit/${item.id}`);

/**
 * /adverts/migration (adverts-articles.md §2.1, §3): the adverts and articles stored in an older layout (the
 * editor says '{name} has not been migrated yet.' for them), with what the legacy mapping makes of each; one or all
 * are migrated to the latest layout. Not for SALES (the screen guard sends it to /403; the server refuses the run).
 */
export default function AdvertMigrationPage() {
  const call = useAtomValue(apiAtom);
  const roles = useAtomValue(rolesAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  // Loaded on arrival, and again after a migration (refresh).
  const { data: list, refresh } = useQuery('adverts.migrationList', () => dataOf(call('adverts.migrationList')), {
    onError: (error) => raise(N.serverError((error as Error).message)),
  });
  const items = list?.items ?? null;
  const total = list?.total ?? 0;
  const [failures, setFailures] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const readOnly = isAdvertReadOnly(roles);

  async function migrate(chosen: LegacyItem[]) {
    setBusy(true);
    try {
      const result = await call('adverts.migrationRun', { body: { items: chosen.map(({ kind, id }) => ({ kind, id })) } });
      if (!result.ok) return raise(result.status === 403 ? N.userNotAllowed : N.serverError(result.errorMsg));
      if (result.data.migrated) raise(N.migrationDone(result.data.migrated));
      if (result.data.failed.length) raise(N.migrationFailed(result.data.failed.length));
      setFailures(Object.fromEntries(result.data.failed.map((failure) => [`${failure.kind}-${failure.id}`, failure.message])));
      refresh();
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="content-list" aria-label={M.migrationTitle} data-testid="advert-migration-page">
      <div className="toolbar">
        <h1>{M.migrationTitle}</h1>
        <span className="count" data-testid="migration-total">
          {items === null ? 'Chargement…' : `${total} à migrer`}
        </span>
        <span className="toolbar-spacer" />
        {!readOnly && items !== null && items.length > 0 && (
          <button type="button" className="primary" disabled={busy} onClick={() => void migrate(items)} data-testid="migration-run-all">
            Tout migrer
          </button>
        )}
      </div>
      <p className="muted">{M.migrationIntro}</p>
      {items !== null && items.length === 0 && (
        <p className="muted" data-testid="migration-empty">
          {M.migrationEmpty}
        </p>
      )}
      {items !== null && items.length > 0 && (
        <table className="data-table" data-testid="migration-table">
          <thead>
            <tr>
              <th>Nature</th>
              <th>Id</th>
              <th>Nom</th>
              <th>Modèle</th>
              <th>Ancienne mise en page</th>
              <th>Type après migration</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => {
              const key = `${item.kind}-${item.id}`;
              return (
                <tr key={key} data-testid={`migration-row-${key}`}>
                  <td>{item.kind === 'advert' ? 'Publicité' : 'Contenu'}</td>
                  <td>{item.id}</td>
                  <td>
                    <Link to={editPath(item)}>{item.name || '(sans nom)'}</Link>
                  </td>
                  <td>{item.model}</td>
                  <td>{item.nestedDocument ? 'Oui (document)' : 'Non'}</td>
                  <td data-testid={`migration-type-${key}`}>{item.mappedType || '—'}</td>
                  <td>
                    {!readOnly && (
                      <button
                        type="button"
                        className="link"
                        disabled={busy}
                        onClick={() => void migrate([item])}
                        data-testid={`migration-run-${key}`}
                      >
                        Migrer
                      </button>
                    )}
                    {failures[key] && (
                      <span className="form-error" data-testid={`migration-error-${key}`}>
                        {' '}
                        {failures[key]}
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
