import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { BAT_MESSAGES as M } from '@shared/messages/bat';
import { BatEditorView } from './BatEditorView';
import { useBatEditor, type BatEditor, type SavedProof } from './useBatEditor';
import { CONFLICT_MESSAGES as C } from '@shared/messages/conflicts';
import { ConflictPanel, displayValue } from '../../ui/ConflictPanel';
import { LocalDraftOffer } from '../../ui/DraftOffer';
import { plainText } from './merge';
import type { BatItem } from '@shared/contract/bat';
import { rolesAtom } from '../../lib/session';
import { contentWriters } from '@shared/access-rules';
import { isAllowed } from '@shared/roles';
import './bat.css';
import { PresenceLine } from '../../ui/PresenceLine';

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
  const canWrite = isAllowed(contentWriters, roles);
  // A refused save (or items still to decide after it), or one waiting for the server (lib/offline.ts), is never
  // shown as 'Enregistré'.
  const refused = editor.stale !== null || editor.conflicts.length > 0;
  // A save the server refused otherwise (a 400) leaves the proof unsaved: never 'Enregistré' either.
  const notSaved = refused || editor.waitingForServer || (editor.dirty && !editor.saving);
  if (editor.load.status === 'notFound') return <NotFound />;
  return (
    <section className="bat-page" data-testid="bat-page">
      <div className="editor-toolbar bat-header">
        <Link to={`/adverts/edit/${advertId}`} className="back-link" data-testid="bat-back">
          {M.back}
        </Link>
        <h1>{M.title(advertId)}</h1>
        <span className="bat-save-state" data-testid="bat-save-state" data-saving={editor.saving} data-refused={refused}>
          {notSaved ? (
            <span className="bat-not-saved">{C.notSaved}</span>
          ) : editor.saving ? (
            <>
              <span className="spinner" aria-hidden data-testid="bat-saving" /> {M.saving}
            </>
          ) : editor.doc?.bat ? (
            M.saved
          ) : null}
        </span>
      </div>
      {editor.stale && (
        <p className="alert warning" role="alert" data-testid="bat-stale">
          {editor.stale} {M.staleKeepsYours}{' '}
          <button type="button" className="secondary" data-testid="bat-reload" onClick={() => void editor.reloadKeepingMine()}>
            {M.reload}
          </button>
        </p>
      )}
      {canWrite && <ProofLocalDraft advertId={advertId} editor={editor} />}
      {editor.conflicts.length > 0 && <ProofConflict editor={editor} />}
      {canWrite && <PresenceLine record="bat" id={advertId} />}
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

/**
 * The proof's local draft (docs/architecture.md, "Versions and conflicts"): pages not saved yet (the autosave
 * waiting, refused, or the server away) are kept and offered back when the proof reopens; a stale one is merged
 * onto the proof as it is now, theirs beside yours for the items both changed.
 */
function ProofLocalDraft({ advertId, editor }: { advertId: number; editor: BatEditor }) {
  const { pages, saved } = editor;
  const values = useMemo(() => (saved ? { pages, version: saved.version } : null), [pages, saved]);
  return (
    <LocalDraftOffer<SavedProof>
      recordKey={editor.load.status === 'ready' && saved ? `bat:${advertId}` : null}
      values={values}
      pristine={saved}
      version={saved?.version ?? null}
      onResume={editor.resumeDraft}
    />
  );
}

/** How an item reads in the conflict table: a text's words, or what it is and where. */
function describe(item: BatItem | null): string {
  if (!item) return M.itemDeleted;
  if (item.type === 'text') return displayValue(plainText(item.content));
  return M.itemAt(item.type, item.x, item.y);
}

/**
 * The items both people changed, after 'Recharger le BAT' merged the user's unsaved items onto theirs
 * (docs/architecture.md, "Versions and conflicts"): theirs beside yours, one choice each, or theirs whole.
 */
function ProofConflict({ editor }: { editor: BatEditor }) {
  const key = (page: number, layerId: number, i: string) => `${page}-${layerId}-${i}`;
  const rows = editor.conflicts.map((conflict) => ({
    field: key(conflict.page, conflict.layerId, conflict.i),
    label: M.itemLabel(conflict.page, (conflict.mine ?? conflict.theirs)?.type ?? 'text'),
    mine: describe(conflict.mine),
    theirs: describe(conflict.theirs),
  }));
  const find = (field: string) => editor.conflicts.find((conflict) => key(conflict.page, conflict.layerId, conflict.i) === field);
  return (
    <ConflictPanel
      message={M.mergedItems}
      rows={rows}
      onKeepMine={(field) => {
        const conflict = find(field);
        if (conflict) editor.decide(conflict, 'mine');
      }}
      onTakeTheirs={(field) => {
        const conflict = find(field);
        if (conflict) editor.decide(conflict, 'theirs');
      }}
      onReload={() => void editor.reload()}
    />
  );
}
