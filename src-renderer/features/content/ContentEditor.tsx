import { useAtomValue, useSetAtom, useStore } from 'jotai';
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { ADVERT_SCREEN_MESSAGES as M, ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { ADVERT_MESSAGES } from '@shared/messages/adverts';
import { LATEST_MODEL } from '@shared/rules/advert-model';
import { isAdvertReadOnly, parseEditorId } from '@shared/rules/advert-screens/editor-sections';
import { isOverdue, type DelayReason } from '@shared/rules/campaigns';
import { NEW_ADVERT_TARGET_KEY } from '@shared/rules/projects';
import type { CallApi } from '../../bridge/api';
import { apiAtom } from '../../lib/bridge';
import { modalAtom } from '../../lib/modal';
import { raiseNoticeAtom } from '../../lib/notices';
import { rolesAtom } from '../../lib/session';
import { useUnsavedChangesGuard } from '../../lib/unsaved-changes';
import { MarkStoredContext } from './stored-change';
import type { EditorAtoms } from './editor-atoms';
import { PresenceLine } from '../../ui/PresenceLine';
import { EditorConflict } from './EditorConflict';
import { ContentLocalDraft } from './ContentLocalDraft';
import { FieldErrorsContext, HighlightContext } from './fields';
import { HistoryPanel } from './HistoryPanel';
import { PreviewPane } from './preview/PreviewPane';
import { storyResetNotice } from './sections/CtaSection';
import type { ContentApi, ContentItem } from './types';
import { ConvertDialog } from './ConvertDialog';
import { DelayReasonDialog } from './DelayReasonDialog';
import { EditorToolbar } from './EditorToolbar';
import { PublicationBar } from './PublicationBar';
import { EditorSections } from './sections/EditorSections';
import { AdBlockerAlert, Loading } from './widgets';

/**
 * The project target an advert opened on /adverts/edit/project-… is created for: its id waits in local storage
 * (spec: the projects page keeps it there first). Read once, when the new advert starts.
 */
function waitingTargetId(rawId: string | undefined): number | undefined {
  if (!rawId?.startsWith('project-')) return undefined;
  const kept = Number(localStorage.getItem(NEW_ADVERT_TARGET_KEY));
  return Number.isInteger(kept) && kept > 0 ? kept : undefined;
}

/**
 * Brings the route's item into the editor: loads an existing one, starts a new one (an advert opened from a project
 * target keeps that target). Answers the id a first save just created, whose route shows the draft already held.
 */
function useRouteItem(atoms: EditorAtoms, kind: 'advert' | 'article', rawId: string | undefined, existingId: number | null, newName: string | null) {
  const load = useSetAtom(atoms.loadAtom);
  const startNew = useSetAtom(atoms.startNewAtom);
  /** The id a first save just created: its route shows the draft already held, without loading it again. */
  const justCreatedRef = useRef<number | null>(null);
  // rawId only matters with newName, which changes with it: it is read when the new item starts, not watched.
  const targetWaitingForNewItem = useEffectEvent(() => waitingTargetId(rawId));
  useEffect(() => {
    // The kernel's signal (lib/query.ts) by hand: this effect also starts new items, which load nothing.
    const controller = new AbortController();
    if (existingId !== null && justCreatedRef.current === existingId) justCreatedRef.current = null;
    else if (existingId !== null) void load(existingId, controller.signal);
    else if (newName !== null) {
      if (kind === 'article') startNew({ name: newName, type: 'post' });
      else {
        const targetId = targetWaitingForNewItem();
        startNew(targetId === undefined ? { name: newName, type: null } : { name: newName, type: null, targetId });
      }
    }
    return () => controller.abort();
  }, [existingId, newName, kind, load, startNew]);
  return justCreatedRef;
}

/** Ctrl/Cmd+S saves (§2.2), unless the user only reads. */
function useSaveShortcut(saveNow: () => Promise<boolean>, readOnly: boolean) {
  useEffect(() => {
    if (readOnly) return;
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void saveNow();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [saveNow, readOnly]);
}

/**
 * The editor's confirmed actions: start the campaign (asking why when it is late, §2.2), convert the item to the
 * other kind, reset its story. A hook so the modal and atom setters are taken before the page's early returns.
 */
function useEditorActions(atoms: EditorAtoms, kind: 'advert' | 'article', api: ContentApi, saved: ContentItem | null, draftId: number | undefined) {
  const publish = useSetAtom(atoms.publishAtom);
  const convert = useSetAtom(atoms.convertAtom);
  const setModal = useSetAtom(modalAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const navigate = useNavigate();

  /** The reason chosen last, offered again if the start was refused after it (it is never lost). */
  const chosenReason = useRef<DelayReason | null>(null);

  async function startCampaign() {
    const target = saved?._$target;
    const late = target && isOverdue(target.initialQuotationDate, Math.floor(Date.now() / 1000));
    // Late: asked once the save and the publication checks passed (publishAtom), never before them.
    const askDelayReason = () =>
      new Promise<DelayReason | null>((resolve) =>
        setModal(
          <DelayReasonDialog
            initial={chosenReason.current}
            onAnswer={(answer) => {
              setModal(null);
              if (answer) chosenReason.current = answer;
              resolve(answer);
            }}
          />,
        ),
      );
    if (await publish({ publish: true, updateDates: true, ...(late ? { askDelayReason } : {}) })) chosenReason.current = null;
  }

  function askConvert() {
    setModal(
      <ConvertDialog
        title={kind === 'advert' ? M.convertToArticleQuestion : M.convertToAdvertQuestion}
        info={kind === 'advert' ? M.convertDetachesAudience : M.convertArticleDetachesAudience}
        onAnswer={async (confirmed) => {
          setModal(null);
          if (!confirmed) return;
          const newId = await convert();
          if (newId !== null) navigate(api.convertedPath(newId));
        }}
      />,
    );
  }

  async function resetStory() {
    if (draftId === undefined || !api.resetStory) return;
    const result = await api.resetStory(draftId);
    if (result.ok) raise(storyResetNotice(result.data.message));
    else raise(result.status === 403 ? N.userNotAllowed : N.serverError(result.errorMsg));
  }

  return { startCampaign, askConvert, resetStory };
}

/**
 * The advert and article editor (adverts-articles.md §2.2, §2.5): ids new / project-{name} / existing; the page
 * states; the toolbar (Save, Save & quit, Ctrl/Cmd+S); labels and publication actions; the accordion sections
 * of the item's type and the user's roles; the preview pane of the draft.
 */
export function ContentEditor(props: { atoms: EditorAtoms; makeApi: (call: CallApi) => ContentApi; kind: 'advert' | 'article' }) {
  const { atoms, kind } = props;
  const { id: rawId } = useParams();
  const editorId = parseEditorId(rawId);
  const status = useAtomValue(atoms.statusAtom);
  const draft = useAtomValue(atoms.draftAtom);
  const saved = useAtomValue(atoms.savedAtom);
  const pending = useAtomValue(atoms.pendingAtom);
  const highlight = useAtomValue(atoms.highlightAtom);
  const fieldErrors = useAtomValue(atoms.fieldErrorsAtom);
  const roles = useAtomValue(rolesAtom);
  const patch = useSetAtom(atoms.patchAtom);
  const markStored = useSetAtom(atoms.markStoredAtom);
  const save = useSetAtom(atoms.saveAtom);
  const publish = useSetAtom(atoms.publishAtom);
  const navigate = useNavigate();
  const call = useAtomValue(apiAtom);
  const api = useMemo(() => props.makeApi(call), [props, call]);
  const readOnly = isAdvertReadOnly(roles);
  const [showHistory, setShowHistory] = useState(false);
  const store = useStore();
  // Leaving with unsaved changes asks first (docs/content.md, unsaved changes); a read-only user has nothing to save.
  useUnsavedChangesGuard(() => !isAdvertReadOnly(store.get(rolesAtom)) && store.get(atoms.dirtyAtom));

  const existingId = editorId.kind === 'existing' ? editorId.id : null;
  const justCreatedRef = useRouteItem(atoms, kind, rawId, existingId, editorId.kind === 'new' ? editorId.name : null);

  /** Saves; a new item then moves to its edit route (§4). Answers whether it was saved. */
  const draftId = draft?.id;
  const draftTargetId = draft?.targetId;
  const saveNow = useCallback(async () => {
    const wasNew = draftId === undefined;
    const result = await save();
    if (result?.id !== undefined && wasNew) {
      // The target is linked now (the server answered its _$target): its id no longer waits.
      if (draftTargetId != null && localStorage.getItem(NEW_ADVERT_TARGET_KEY) === String(draftTargetId))
        localStorage.removeItem(NEW_ADVERT_TARGET_KEY);
      justCreatedRef.current = result.id;
      navigate(api.editPath(result.id), { replace: true });
    }
    return result !== null;
  }, [save, draftId, draftTargetId, navigate, api, justCreatedRef]);

  useSaveShortcut(saveNow, readOnly);
  const { startCampaign, askConvert, resetStory } = useEditorActions(atoms, kind, api, saved, draftId);

  if (editorId.kind === 'invalid' || status === 'notFound') {
    return (
      <div className="centered" data-testid="editor-not-found">
        <p className="big-mark">404</p>
        <p>{ADVERT_MESSAGES.advertNotFound}</p>
      </div>
    );
  }
  // The atoms outlive the page: until this route's item is in, another item's draft may still be there.
  const isThisItem = draft !== null && (existingId !== null ? draft.id === existingId : draft.id === undefined);
  if (status !== 'ready' || !draft || !isThisItem) return <Loading />;
  if (draft.model && draft.model !== LATEST_MODEL) {
    return (
      <div className="centered" data-testid="editor-not-migrated">
        {M.notMigrated(draft.name ?? '')}
      </div>
    );
  }

  const change = (next: Partial<ContentItem>) => patch(next);
  const isNew = draft.id === undefined;

  return (
    <HighlightContext.Provider value={highlight}>
      <FieldErrorsContext.Provider value={fieldErrors}>
        <MarkStoredContext.Provider value={markStored}>
          <section
            className="editor"
            aria-label={kind === 'advert' ? 'Éditeur de publicité' : 'Éditeur de contenu'}
            data-testid="editor"
            data-kind={kind}
          >
            <EditorToolbar
              kind={kind}
              draft={draft}
              api={api}
              readOnly={readOnly}
              pending={pending}
              showHistory={showHistory}
              onToggleHistory={() => setShowHistory(!showHistory)}
              onSave={saveNow}
              onConvert={askConvert}
            />

            <EditorConflict atoms={atoms} />
            {!readOnly && <PresenceLine record={kind} id={draft.id ?? null} />}
            {/* The ad-blocker alert of §2.2, in the editor as on the list: a blocker breaks its uploads and previews. */}
            <AdBlockerAlert />
            {!readOnly && <ContentLocalDraft atoms={atoms} recordKey={`${kind}:${draft.id ?? rawId ?? 'new'}`} />}

            {readOnly && (
              <p className="alert info" data-testid="read-only">
                Lecture seule
              </p>
            )}

            {!isNew && (
              <PublicationBar
                kind={kind}
                saved={saved}
                pending={pending}
                readOnly={readOnly}
                publish={publish}
                onStartCampaign={() => void startCampaign()}
              />
            )}

            <div className="editor-body">
              <EditorSections
                draft={draft}
                saved={saved}
                kind={kind}
                roles={roles}
                readOnly={readOnly}
                api={api}
                makeApi={props.makeApi}
                patch={change}
                onResetStory={() => void resetStory()}
              />
              <aside className="preview-pane" aria-label="Preview" data-testid="preview-pane">
                {/* The preview of the current draft (preview/). */}
                <PreviewPane item={draft} kind={kind} />
                {showHistory && !isNew && <HistoryPanel atoms={atoms} makeApi={props.makeApi} itemId={draft.id!} />}
              </aside>
            </div>
          </section>
        </MarkStoredContext.Provider>
      </FieldErrorsContext.Provider>
    </HighlightContext.Provider>
  );
}
