import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import {
  APP_SEARCH_DEBOUNCE_MS,
  buildDeeplink,
  DEEPLINK_TARGETS,
  deeplinkErrors,
  emptyDeeplinkForm,
  isAppPart,
  isAppSearchTerm,
  isDeeplinkValid,
  isItemTarget,
  OPEN_MODES,
  type Deeplink,
  type DeeplinkForm,
  type DeeplinkTarget,
  type OpenMode,
} from '@shared/rules/deeplink';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { dataOf } from '../../lib/query';
import { useQuery } from '../../lib/use-query';
import { Dialog } from '../../ui/Dialog';

/**
 * The deeplink generator (§2.7): a target, its id or section, the application's page and open mode (encoding on
 * by default); Créer stays disabled until the form is valid; the link is copied with 'Link copied' or 'Failed
 * to copy actions'. App search (3 characters, 300 ms) looks among the App criteria; a failure is an empty result.
 */
export function DeeplinkDialog(props: { onClose: () => void; onUse?: (url: string) => void }) {
  const raise = useSetAtom(raiseNoticeAtom);
  const [form, setForm] = useState<DeeplinkForm>(emptyDeeplinkForm());
  const [link, setLink] = useState<Deeplink | null>(null);
  const [appTerm, setAppTerm] = useState('');
  const apps = useAppSearch(form.target, appTerm);
  const errors = deeplinkErrors(form);
  const change = (patch: Partial<DeeplinkForm>) => {
    setForm({ ...form, ...patch });
    setLink(null);
  };

  async function copy() {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      raise(N.linkCopied);
    } catch {
      raise(N.copyFailed);
    }
  }

  const shown = (field: 'id' | 'url' | 'term' | 'scheme') => (field === 'id' && form.id === '' && isItemTarget(form.target) ? null : errors[field]);

  return (
    <Dialog
      title="Générateur de deeplink"
      testId="deeplink-dialog"
      onCancel={props.onClose}
      actions={
        <>
          <button type="button" className="secondary" onClick={props.onClose} data-testid="deeplink-close">
            Fermer
          </button>
          <button
            type="button"
            className="primary"
            disabled={!isDeeplinkValid(form)}
            onClick={() => setLink(buildDeeplink(form))}
            data-testid="deeplink-create"
          >
            Créer
          </button>
        </>
      }
    >
      <div className="form">
        <label className="field">
          <span className="field-label">Schéma (adresse de l'app)</span>
          <input value={form.scheme} onChange={(event) => change({ scheme: event.target.value.trim() })} data-testid="deeplink-scheme" />
          {shown('scheme') && <span className="field-error">{shown('scheme')}</span>}
        </label>
        <label className="field">
          <span className="field-label">Cible</span>
          <select
            value={form.target}
            onChange={(event) => change({ target: event.target.value as DeeplinkTarget, id: '' })}
            data-testid="deeplink-target"
          >
            {DEEPLINK_TARGETS.map((target) => (
              <option key={target} value={target}>
                {target}
              </option>
            ))}
          </select>
        </label>
        {(isItemTarget(form.target) || isAppPart(form.target)) && (
          <label className="field">
            <span className="field-label">{isItemTarget(form.target) ? 'Identifiant' : 'Section (facultatif)'}</span>
            <input value={form.id} onChange={(event) => change({ id: event.target.value })} data-testid="deeplink-id" />
            {shown('id') && (
              <span className="field-error" data-testid="deeplink-id-error">
                {shown('id')}
              </span>
            )}
          </label>
        )}
        {form.target === 'global-search' && (
          <label className="field">
            <span className="field-label">Recherche</span>
            <input value={form.term} onChange={(event) => change({ term: event.target.value })} data-testid="deeplink-term" />
          </label>
        )}
        {form.target === 'application' && (
          <ApplicationFields form={form} change={change} appTerm={appTerm} setAppTerm={setAppTerm} apps={apps} urlError={errors.url} />
        )}
        {link && (
          <div className="deeplink-result">
            <code data-testid="deeplink-url-result">{link.url}</code>
            <button type="button" className="secondary small" onClick={() => void copy()} data-testid="deeplink-copy">
              Copier
            </button>
            {props.onUse && (
              <button type="button" className="primary small" onClick={() => props.onUse!(link.url)} data-testid="deeplink-use">
                Utiliser
              </button>
            )}
          </div>
        )}
      </div>
    </Dialog>
  );
}

type AppResult = { id: number; name: string };

/** App search among the App criteria, debounced; only while the target is an application and the term is long enough. */
function useAppSearch(target: DeeplinkTarget, appTerm: string): AppResult[] {
  const call = useAtomValue(apiAtom);
  const searchable = target === 'application' && isAppSearchTerm(appTerm);
  const term = appTerm.trim();
  const { data: apps, error } = useQuery(term, () => dataOf(call('nodes.search', { query: { term, label: 'App', limit: 20 } })), {
    enabled: searchable,
    debounceMs: APP_SEARCH_DEBOUNCE_MS,
    // Spec §8: app search failure gives an empty result, logged only.
    onError: (failure) => console.warn('app search failed', (failure as Error).message),
  });
  // The last answer while a search applies; none otherwise (derived, not cleared by an effect).
  return searchable && !error ? (apps ?? []) : [];
}

/** The application target's fields: app search, URL, open mode and encoding. */
function ApplicationFields(props: {
  form: DeeplinkForm;
  change: (patch: Partial<DeeplinkForm>) => void;
  appTerm: string;
  setAppTerm: (term: string) => void;
  apps: AppResult[];
  urlError: string | undefined;
}) {
  return (
    <>
      <label className="field">
        <span className="field-label">Chercher une application</span>
        <input type="search" value={props.appTerm} onChange={(event) => props.setAppTerm(event.target.value)} data-testid="deeplink-app-search" />
      </label>
      {props.apps.length > 0 && (
        <ul className="search-results" data-testid="deeplink-apps">
          {props.apps.map((app) => (
            <li key={app.id}>
              <button type="button" className="link" onClick={() => props.change({ url: app.name.startsWith('http') ? app.name : props.form.url })}>
                {app.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <label className="field">
        <span className="field-label">URL</span>
        <input value={props.form.url} onChange={(event) => props.change({ url: event.target.value })} data-testid="deeplink-url" />
        {props.form.url !== '' && props.urlError && (
          <span className="field-error" data-testid="deeplink-url-error">
            {props.urlError}
          </span>
        )}
      </label>
      <label className="field">
        <span className="field-label">Ouverture</span>
        <select
          value={props.form.openMode}
          onChange={(event) => props.change({ openMode: event.target.value as OpenMode })}
          data-testid="deeplink-open-mode"
        >
          {OPEN_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {mode}
            </option>
          ))}
        </select>
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={props.form.encode}
          onChange={(event) => props.change({ encode: event.target.checked })}
          data-testid="deeplink-encode"
        />
        Encoder l'URL
      </label>
    </>
  );
}
