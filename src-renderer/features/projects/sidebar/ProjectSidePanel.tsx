import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useLayoutEffect, useRef, useState, type JSX } from 'react';
import type { ProjectComment, TargetComment } from '@shared/contract/projects/comments';
import type { Project } from '@shared/contract/projects/projects';
import { briefingStartState, canEditBriefing, canEditComment } from '@shared/rules/project-comments';
import { formatDate } from '@shared/rules/dates';
import { rolesAtom } from '../../../lib/session';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { useFocusWhileOpen } from '../../../ui/focus-return';
import {
  addProjectCommentAtom,
  addTargetCommentAtom,
  briefingDraftAtom,
  briefingEditingAtom,
  briefingEditorGenerationAtom,
  briefingSavingAtom,
  cancelBriefingAtom,
  currentUserIdAtom,
  deleteProjectCommentAtom,
  deleteTargetCommentAtom,
  editProjectCommentAtom,
  editTargetCommentAtom,
  loadTargetCommentsAtom,
  saveBriefingAtom,
  sidePanelTabAtom,
  targetCommentsAtom,
  type SidePanelTab,
} from './atoms';
import { BriefingEditor } from './BriefingEditor';
import { BriefingView } from './BriefingView';
import './side-panel.css';
import { X } from 'lucide-react';

/**
 * Where the window's space under the top bar begins: the demo or offline banner above the bar makes it lower, a
 * scrolled page higher. The panel starts there and never covers the bar ('Déconnexion', the menus).
 */
function useBelowTopBar(open: boolean): number {
  const [top, setTop] = useState(52);
  useLayoutEffect(() => {
    const bar = document.querySelector('.topbar');
    if (!open || !bar) return;
    const measure = () => setTop(Math.max(0, Math.round(bar.getBoundingClientRect().bottom)));
    // Observing fires once at once, then on each change of the page's size (a banner shown or gone).
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    window.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      window.removeEventListener('scroll', measure);
    };
  }, [open]);
  return top;
}

/**
 * The project page's comments / briefing sidebar (audiences-projects-tools.md §2, §4 "Briefing and comments",
 * §6 Comments). Closing it cancels a briefing edit (spec §4: cancelling happens when the sidebar closes).
 */
export function ProjectSidePanel(props: {
  project: Project;
  open: boolean;
  initialTab: 'comments' | 'briefing';
  onClose(): void;
  onProjectChanged(project: Project): void;
}): JSX.Element | null {
  const [tab, setTab] = useAtom(sidePanelTabAtom);
  const cancelBriefing = useSetAtom(cancelBriefingAtom);
  const loadTargetComments = useSetAtom(loadTargetCommentsAtom);
  const { open, initialTab, project } = props;

  useEffect(() => {
    if (open) setTab(initialTab);
    else cancelBriefing();
  }, [open, initialTab, setTab, cancelBriefing]);

  useEffect(() => {
    if (open) void loadTargetComments(project.id);
  }, [open, project.id, loadTargetComments]);

  const top = useBelowTopBar(open);
  const panel = useRef<HTMLElement>(null);
  useFocusWhileOpen(panel, open);

  if (!open) return null;
  return (
    <aside
      ref={panel}
      tabIndex={-1}
      className="project-side-panel"
      style={{ top }}
      aria-label="Commentaires et briefing"
      data-testid="project-side-panel"
      // Escape closes it from anywhere inside (a field that uses Escape itself stops it there).
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) props.onClose();
      }}
    >
      <header className="project-side-header">
        <div role="tablist" className="project-side-tabs">
          {(
            [
              ['comments', 'Commentaires'],
              ['briefing', 'Briefing'],
            ] as [SidePanelTab, string][]
          ).map(([value, label]) => (
            <button
              key={value}
              type="button"
              role="tab"
              aria-selected={tab === value}
              className={tab === value ? 'active' : ''}
              data-testid={`side-tab-${value}`}
              onClick={() => setTab(value)}
            >
              {label}
            </button>
          ))}
        </div>
        <button type="button" className="link" aria-label="Fermer" data-testid="side-panel-close" onClick={props.onClose}>
          <X size={18} aria-hidden />
        </button>
      </header>
      {tab === 'comments' ? (
        <CommentsTab project={project} onProjectChanged={props.onProjectChanged} />
      ) : (
        <BriefingTab project={project} onProjectChanged={props.onProjectChanged} />
      )}
    </aside>
  );
}

// ---- comments ---------------------------------------------------------------------------------------------------

function CommentsTab(props: { project: Project; onProjectChanged(project: Project): void }) {
  const { project, onProjectChanged } = props;
  const userId = useAtomValue(currentUserIdAtom);
  const addProjectComment = useSetAtom(addProjectCommentAtom);
  const editProjectComment = useSetAtom(editProjectCommentAtom);
  const deleteProjectComment = useSetAtom(deleteProjectCommentAtom);
  const targetComments = useAtomValue(targetCommentsAtom);
  const addTargetComment = useSetAtom(addTargetCommentAtom);
  const editTargetComment = useSetAtom(editTargetCommentAtom);
  const deleteTargetComment = useSetAtom(deleteTargetCommentAtom);
  const [draft, setDraft] = useState('');
  const [targetId, setTargetId] = useState<number | ''>('');
  const [targetDraft, setTargetDraft] = useState('');
  const changed = (next: Project | null) => {
    if (next && next !== project) onProjectChanged(next);
    return next !== null;
  };

  return (
    <div className="project-side-body" data-testid="side-comments">
      <section>
        <h3>Projet</h3>
        {project.comments.length === 0 && <p className="muted">Aucun commentaire</p>}
        <ul className="comment-list">
          {project.comments.map((comment) => (
            <CommentItem
              key={comment.id}
              comment={comment}
              editable={canEditComment(comment, userId)}
              onSave={async (content) => changed(await editProjectComment({ project, comment, content }))}
              onDelete={async () => void changed(await deleteProjectComment({ project, comment }))}
            />
          ))}
        </ul>
        <form
          className="comment-new"
          onSubmit={async (event) => {
            event.preventDefault();
            if (changed(await addProjectComment({ project, content: draft }))) setDraft('');
          }}
        >
          <textarea
            value={draft}
            rows={3}
            placeholder="Nouveau commentaire"
            aria-label="Nouveau commentaire"
            data-testid="comment-new"
            onChange={(e) => setDraft(e.target.value)}
          />
          <button type="submit" className="primary" disabled={!draft.trim()} data-testid="comment-add">
            Ajouter
          </button>
        </form>
      </section>

      <section>
        <h3>Actions</h3>
        {project.targets.map((target) => {
          const comments = targetComments[target.id] ?? [];
          if (!comments.length) return null;
          return (
            <div key={target.id} className="target-comments" data-testid={`side-target-comments-${target.id}`}>
              <h4>{target.actionCode ?? `#${target.id}`}</h4>
              <ul className="comment-list">
                {comments.map((comment: TargetComment) => (
                  <CommentItem
                    key={comment.id}
                    comment={comment}
                    editable={canEditComment(comment, userId)}
                    onSave={(content) => editTargetComment({ comment, content })}
                    onDelete={async () => void (await deleteTargetComment(comment))}
                  />
                ))}
              </ul>
            </div>
          );
        })}
        {project.targets.length > 0 && (
          <form
            className="comment-new"
            onSubmit={async (event) => {
              event.preventDefault();
              if (targetId !== '' && (await addTargetComment({ targetId, content: targetDraft }))) setTargetDraft('');
            }}
          >
            <select
              value={targetId}
              aria-label="Action"
              data-testid="target-comment-target"
              onChange={(e) => setTargetId(e.target.value ? Number(e.target.value) : '')}
            >
              <option value="">Action…</option>
              {project.targets.map((target) => (
                <option key={target.id} value={target.id}>
                  {target.actionCode ?? `#${target.id}`}
                </option>
              ))}
            </select>
            <textarea
              value={targetDraft}
              rows={2}
              placeholder="Commentaire sur l'action"
              aria-label="Commentaire sur l'action"
              data-testid="target-comment-new"
              onChange={(e) => setTargetDraft(e.target.value)}
            />
            <button type="submit" className="primary" disabled={targetId === '' || !targetDraft.trim()} data-testid="target-comment-add">
              Ajouter
            </button>
          </form>
        )}
      </section>
    </div>
  );
}

/** One comment: the author's first name and date; edit and delete only on one's own (spec §6). */
function CommentItem(props: { comment: ProjectComment; editable: boolean; onSave(content: string): Promise<boolean>; onDelete(): Promise<void> }) {
  const { comment } = props;
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <li className="comment" data-testid={`comment-${comment.id}`} data-own={props.editable ? 'true' : 'false'}>
      <div className="comment-meta">
        <strong>{comment.authorName}</strong> <span className="muted">{formatDate(Math.floor(comment.createdAt / 1000))}</span>
        {props.editable && editing === null && (
          <span className="comment-actions">
            <button type="button" className="link" data-testid={`comment-edit-${comment.id}`} onClick={() => setEditing(comment.content)}>
              Modifier
            </button>
            <ConfirmButton message="Supprimer ce commentaire ?" testId={`comment-delete-${comment.id}`} onConfirm={() => void props.onDelete()}>
              Supprimer
            </ConfirmButton>
          </span>
        )}
      </div>
      {editing === null ? (
        <p className="comment-content">{comment.content}</p>
      ) : (
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            if (await props.onSave(editing)) setEditing(null);
          }}
        >
          <textarea
            value={editing}
            rows={3}
            aria-label="Commentaire"
            data-testid={`comment-input-${comment.id}`}
            onChange={(e) => setEditing(e.target.value)}
          />
          <div className="comment-edit-actions">
            <button type="submit" className="primary" disabled={!editing.trim()} data-testid={`comment-save-${comment.id}`}>
              Enregistrer
            </button>
            <button type="button" className="secondary" onClick={() => setEditing(null)}>
              Annuler
            </button>
          </div>
        </form>
      )}
    </li>
  );
}

// ---- briefing ---------------------------------------------------------------------------------------------------

function BriefingTab(props: { project: Project; onProjectChanged(project: Project): void }) {
  const { project } = props;
  const roles = useAtomValue(rolesAtom);
  const editable = canEditBriefing(roles);
  const [editing, setEditing] = useAtom(briefingEditingAtom);
  const generation = useAtomValue(briefingEditorGenerationAtom);
  const setDraft = useSetAtom(briefingDraftAtom);
  const saving = useAtomValue(briefingSavingAtom);
  const save = useSetAtom(saveBriefingAtom);
  const cancel = useSetAtom(cancelBriefingAtom);
  const start = briefingStartState(project.briefing);

  if (!editing || !editable) {
    return (
      <div className="project-side-body" data-testid="side-briefing">
        {!project.briefing && <p className="muted">Pas encore de briefing : modèle par défaut.</p>}
        {editable ? (
          <div
            className="briefing-read editable"
            role="button"
            tabIndex={0}
            title="Cliquer pour modifier"
            data-testid="briefing-read"
            onClick={() => setEditing(true)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') setEditing(true);
            }}
          >
            <BriefingView state={start} />
          </div>
        ) : (
          <div className="briefing-read" data-testid="briefing-read">
            <BriefingView state={start} />
          </div>
        )}
        {editable && (
          <button type="button" className="secondary" data-testid="briefing-edit" onClick={() => setEditing(true)}>
            Modifier
          </button>
        )}
      </div>
    );
  }

  return (
    <div className="project-side-body" data-testid="side-briefing">
      <BriefingEditor key={`${project.id}-${generation}`} initialState={start} onChange={setDraft} />
      <div className="briefing-actions">
        <button
          type="button"
          className="primary"
          disabled={saving}
          data-testid="briefing-save"
          onClick={async () => {
            const next = await save(project);
            if (next) props.onProjectChanged(next);
          }}
        >
          Enregistrer
        </button>
        <button type="button" className="secondary" data-testid="briefing-cancel" onClick={cancel}>
          Annuler
        </button>
      </div>
    </div>
  );
}
