import { useAtomValue, useSetAtom, useStore } from 'jotai';
import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import type { Project } from '@shared/contract/projects/projects';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { useConfirm } from '../../lib/modal';
import { useUnsavedChangesGuard } from '../../lib/unsaved-changes';
import { useQuery } from '../../lib/use-query';
import { emptyUndoStack } from '@shared/rules/project-grid';
import { canEditProjectAtom, deleteProjectAtom, editedProjectAtom, editedProjectErrorAtom, gridUndoStackAtom, loadProjectAtom } from './edit-atoms';
import { headerConflictAtom, headerDirtyAtom, headerTypedAtom } from './header/atoms';
import { ProjectHeaderConflict } from './header/HeaderConflict';
import { InlineField, ProjectHeaderDraft } from './header/ProjectHeaderFields';
import { EstimateImportDialog } from './EstimateImportDialog';
import { TargetGrid } from './grid/TargetGrid';
import { briefingDraftAtom, briefingEditingAtom } from './sidebar/atoms';
import { ProjectSidePanel } from './sidebar/ProjectSidePanel';
import { TimelineOverlay } from './timeline/TimelineOverlay';
import { PresenceLine } from '../../ui/PresenceLine';
import './project-edit.css';

/** Spec §2: the hash #comment opens the comments sidebar 500 ms after the project is shown. */
const COMMENT_HASH_DELAY_MS = 500;

/**
 * The project editor, /project/edit/{id} (spec §2): inline name and client, the target grid, the comments and
 * briefing sidebar, the timeline overlay, the quote import and the delete confirmation. /project/edit/new goes to
 * /projects with the create modal open (the create modal lives on the list; after creation it comes back here).
 */
export default function ProjectEditPage() {
  const { id = '' } = useParams();
  if (id === 'new') return <Navigate to="/projects?create=1" replace />;
  const projectId = Number(id);
  if (!Number.isInteger(projectId) || projectId < 1) return <p className="project-edit-error">{PROJECT_MESSAGES.projectNotFound}</p>;
  return <ProjectEditor key={projectId} projectId={projectId} />;
}

function ProjectEditor(props: { projectId: number }) {
  const project = useAtomValue(editedProjectAtom);
  const loadError = useAtomValue(editedProjectErrorAtom);
  const canEdit = useAtomValue(canEditProjectAtom);
  const load = useSetAtom(loadProjectAtom);
  const setProject = useSetAtom(editedProjectAtom);
  const setUndoStack = useSetAtom(gridUndoStackAtom);
  const deleteProject = useSetAtom(deleteProjectAtom);
  const confirm = useConfirm();
  const navigate = useNavigate();
  const location = useLocation();
  const [sidePanel, setSidePanel] = useState<{ open: boolean; tab: 'comments' | 'briefing' }>({ open: false, tab: 'comments' });
  const [timelineOpen, setTimelineOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const store = useStore();
  // The name and client typed and not saved (Enter saves), and the briefing being edited, are what can be lost.
  useUnsavedChangesGuard(() => store.get(headerDirtyAtom) || (store.get(briefingEditingAtom) && store.get(briefingDraftAtom) !== null));
  const setHeaderTyped = useSetAtom(headerTypedAtom);
  const setHeaderConflict = useSetAtom(headerConflictAtom);

  // Each project opened is read through the kernel (a read for a project left meanwhile is dropped). The hash is
  // read once, when the project is opened: a later change of it does not reload the project.
  const opened = useQuery(['projects.get', props.projectId], async (signal) => {
    setProject(null);
    setHeaderTyped({});
    setHeaderConflict(null);
    // Undo belongs to the project it was done in.
    setUndoStack(emptyUndoStack());
    const showComments = location.hash === '#comment';
    return { loaded: await load(props.projectId, signal), showComments };
  });
  const openComments = opened.data !== undefined && opened.data.loaded !== null && opened.data.showComments;
  useEffect(() => {
    if (!openComments) return;
    const timer = setTimeout(() => setSidePanel({ open: true, tab: 'comments' }), COMMENT_HASH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [openComments, opened.data]);

  if (loadError)
    return (
      <p className="project-edit-error" role="alert">
        {loadError}
      </p>
    );
  if (!project || project.id !== props.projectId) return <p className="project-edit-loading">{PROJECT_MESSAGES.loading}</p>;

  const onDelete = async () => {
    // Deleting takes the actions with it: the dialog opens on « Non », so Enter alone never deletes.
    if (!(await confirm(PROJECT_MESSAGES.confirmDeleteProject, { focus: 'cancel' }))) return;
    if (await deleteProject()) navigate('/projects');
  };
  const replaceProject = (next: Project) => setProject(next);

  return (
    <section className="project-edit" aria-label="Projet" data-testid="project-edit">
      <header className="project-edit-header">
        {/* The name is shown in its field: the heading is for screen readers (one <h1> per screen). */}
        <h1 className="visually-hidden">{`Projet ${project.name}`}</h1>
        <button type="button" className="secondary" onClick={() => navigate('/projects')} data-testid="project-back" aria-label="Retour aux projets">
          ← Retour
        </button>
        <InlineField label="Nom du projet" field="name" readOnly={!canEdit} />
        <InlineField label="Client" field="clientName" readOnly={!canEdit} />
        <div className="project-edit-toolbar" role="toolbar" aria-label="Actions du projet">
          <button type="button" onClick={() => setTimelineOpen(true)} data-testid="project-timeline-open" title="Timeline">
            Timeline
          </button>
          <button
            type="button"
            onClick={() => setSidePanel((current) => ({ ...current, open: !current.open }))}
            data-testid="project-comments-toggle"
            aria-pressed={sidePanel.open}
            title="Commentaires et briefing"
          >
            Commentaires{project.isProjectCommented ? ' •' : ''}
          </button>
          {canEdit && (
            <button type="button" onClick={() => setImportOpen(true)} data-testid="project-import-estimate">
              {PROJECT_MESSAGES.importEstimateChoice}
            </button>
          )}
          {canEdit && (
            <button type="button" className="danger" onClick={() => void onDelete()} data-testid="project-delete">
              Supprimer le projet
            </button>
          )}
        </div>
      </header>
      {/* Who else has the project open, header and grid alike (lib/presence.ts), as on audiences and groups. */}
      {canEdit && <PresenceLine record="project" id={project.id} />}
      {canEdit && <ProjectHeaderDraft />}
      <ProjectHeaderConflict />
      <TargetGrid />
      <ProjectSidePanel
        project={project}
        open={sidePanel.open}
        initialTab={sidePanel.tab}
        onClose={() => setSidePanel((current) => ({ ...current, open: false }))}
        onProjectChanged={replaceProject}
      />
      {timelineOpen && <TimelineOverlay project={project} onClose={() => setTimelineOpen(false)} />}
      {importOpen && (
        <EstimateImportDialog
          projectId={project.id}
          onClose={() => setImportOpen(false)}
          onImported={(next) => {
            replaceProject(next);
            setImportOpen(false);
          }}
        />
      )}
    </section>
  );
}
