import { useAtomValue } from 'jotai';
import { Link, useParams } from 'react-router-dom';
import { BAT_MESSAGES as M } from '@shared/messages/bat';
import { BatEditorView } from './BatEditorView';
import { useBatEditor } from './useBatEditor';
import { rolesAtom } from '../../lib/session';
import { access, isAllowed } from '@shared/roles';
import './bat.css';

/**
 * /advert/bat/{advertId} (adverts-articles.md §2.6): the proof editor, or its empty state while the advert has no
 * proof ('Le BAT n'existe pas. Capturez une preview pour commencer.'). Back goes to the advert's editor.
 */
export default function BatPage() {
  const { advertId: rawId } = useParams();
  const advertId = Number(rawId);
  const valid = Number.isInteger(advertId) && advertId > 0;
  return valid ? <BatScreen advertId={advertId} /> : <NotFound />;
}

function NotFound() {
  return (
    <div className="centered" data-testid="bat-not-found">
      <p className="big-mark">404</p>
      <p>{M.advertNotFound}</p>
    </div>
  );
}

function BatScreen({ advertId }: { advertId: number }) {
  const editor = useBatEditor(advertId);
  const roles = useAtomValue(rolesAtom);
  // Spec §6: SALES reads the proof only (the server refuses its writes with 'User not allowed').
  const canWrite = isAllowed(access.notRole('SALES'), roles);
  if (editor.load.status === 'notFound') return <NotFound />;
  return (
    <section className="bat-page" data-testid="bat-page">
      <div className="editor-toolbar bat-header">
        <Link to={`/adverts/edit/${advertId}`} className="back-link" data-testid="bat-back">
          {M.back}
        </Link>
        <h1>{M.title(advertId)}</h1>
        <span className="bat-save-state" data-testid="bat-save-state" data-saving={editor.saving}>
          {editor.saving ? (
            <>
              <span className="spinner" aria-hidden data-testid="bat-saving" /> {M.saving}
            </>
          ) : editor.doc?.bat ? (
            M.saved
          ) : null}
        </span>
      </div>
      {editor.stale && (
        <p className="alert warning" data-testid="bat-stale">
          {M.stale}{' '}
          <button type="button" className="secondary" data-testid="bat-reload" onClick={() => void editor.reload()}>
            {M.reload}
          </button>
        </p>
      )}
      {editor.load.status === 'loading' && <p className="muted">Chargement…</p>}
      {editor.load.status === 'error' && <p className="alert warning">{editor.load.message}</p>}
      {editor.load.status === 'ready' && editor.doc && !editor.doc.bat && (
        <p className="muted bat-empty" data-testid="bat-empty">
          {M.batMissing}
        </p>
      )}
      {editor.load.status === 'ready' && editor.doc?.bat && <BatEditorView advertId={advertId} editor={editor} canWrite={canWrite} />}
    </section>
  );
}
