import { useSetAtom } from 'jotai';
import { Link, useNavigate } from 'react-router-dom';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { isConvertible } from '@shared/rules/advert-screens/editor-sections';
import { hasNonExpertAudience } from '@shared/rules/advert-screens/save-checks';
import { modalAtom } from '../../lib/modal';
import { DeeplinkDialog } from './DeeplinkDialog';
import { ProofState } from './ProofState';
import type { ContentApi, ContentItem } from './types';

/** The editor's toolbar (§2.2): back link, title, Save and Save & quit, project page, expert warning, deeplink, history, conversion. */
export function EditorToolbar(props: {
  kind: 'advert' | 'article';
  draft: ContentItem;
  api: ContentApi;
  readOnly: boolean;
  pending: boolean;
  showHistory: boolean;
  onToggleHistory: () => void;
  onSave: () => Promise<boolean>;
  onConvert: () => void;
}) {
  const { kind, draft, api, readOnly, pending, showHistory } = props;
  const setModal = useSetAtom(modalAtom);
  const navigate = useNavigate();
  const isNew = draft.id === undefined;
  return (
    <div className="editor-toolbar">
      <Link to={api.listPath} className="back-link">
        ← {kind === 'advert' ? 'Publicités' : 'Contenus'}
      </Link>
      <h1 data-testid="editor-title">{draft.name || (isNew ? (kind === 'advert' ? 'Nouvelle publicité' : 'Nouveau contenu') : '(sans nom)')}</h1>
      {!readOnly && (
        <>
          <button type="button" className="primary" disabled={pending} onClick={() => void props.onSave()} data-testid="editor-save">
            Save
          </button>
          <button
            type="button"
            className="secondary"
            disabled={pending}
            onClick={async () => {
              if (await props.onSave()) navigate(api.listPath);
            }}
            data-testid="editor-save-quit"
          >
            Save &amp; quit
          </button>
        </>
      )}
      {draft._$target?.projectId != null ? (
        <Link to={`/project/edit/${draft._$target.projectId}`} className="button secondary" data-testid="project-page">
          Page projet
        </Link>
      ) : null}
      {kind === 'advert' && !isNew && api.proofSummary && <ProofState advertId={draft.id!} api={api} />}
      {kind === 'advert' && hasNonExpertAudience(draft._$audiences) && (
        <span className="alert warning inline-alert" data-testid="expert-warning">
          {M.expertWarning}
        </span>
      )}
      <span className="toolbar-spacer" />
      <button
        type="button"
        className="secondary"
        onClick={() => setModal(<DeeplinkDialog onClose={() => setModal(null)} />)}
        data-testid="open-deeplink"
      >
        Deeplink
      </button>
      {!isNew && api.history && (
        <button type="button" className="secondary" aria-pressed={showHistory} onClick={props.onToggleHistory} data-testid="toggle-history">
          Historique
        </button>
      )}
      {!isNew && !readOnly && (kind === 'article' || isConvertible(draft.type)) && (
        <button type="button" className="secondary" onClick={props.onConvert} data-testid="convert">
          {kind === 'advert' ? M.convertToArticle : M.convertToAdvert}
        </button>
      )}
    </div>
  );
}
