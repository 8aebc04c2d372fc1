import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { Link } from 'react-router-dom';
import type { LabProjectListItem } from '@shared/contract/laboratory';
import { LAB_MESSAGES as M } from '@shared/messages/laboratory';
import { modalAtom } from '../../lib/modal';
import { UploadProgressList, uploadsAtom } from '../../lib/uploads';
import { useQuery } from '../../lib/use-query';
import { DataTable, type Column } from '../../ui/DataTable';
import { Dialog } from '../../ui/Dialog';
import {
  canWriteLabAtom,
  createLabProjectAtom,
  deleteLabProjectAtom,
  interruptedLoadsAtom,
  labProjectsAtom,
  labProjectsLoadingAtom,
  loadLabProjectsAtom,
} from './atoms';
import { NewLabProjectDialog } from './NewLabProjectDialog';
import './laboratory.css';

/** While a panel loads (here or elsewhere), the list is read again this often so the spinner ends by itself. */
const PENDING_POLL_MS = 1500;

const count = (value: number) => value.toLocaleString('fr-FR');

/** The delete confirmation, titled as spec §2 says. */
function DeleteDialog(props: { name: string; onAnswer: (confirmed: boolean) => void }) {
  const cancel = () => props.onAnswer(false);
  return (
    <Dialog
      title={M.confirmDeleteTitle}
      testId="lab-delete-dialog"
      onCancel={cancel}
      actions={
        <>
          <button type="button" className="secondary" onClick={cancel} data-testid="confirm-no">
            Non
          </button>
          <button type="button" className="primary danger" onClick={() => props.onAnswer(true)} data-testid="confirm-yes">
            Oui
          </button>
        </>
      }
    >
      <p data-testid="confirm-message">{props.name}</p>
    </Dialog>
  );
}

/** /alphonse (spec §2 Laboratory list): projects by name, the pending spinner, delete, the new-project modal. */
export default function AlphonseListPage() {
  const [interrupted, setInterrupted] = useAtom(interruptedLoadsAtom);
  // A load cut here left nothing: its pending project (until the server sweeps it) is not shown as loading.
  const projects = useAtomValue(labProjectsAtom).filter(
    (project) => !(project.pending && interrupted.some((load) => load.projectName === project.name)),
  );
  const loading = useAtomValue(labProjectsLoadingAtom);
  const canWrite = useAtomValue(canWriteLabAtom);
  const uploads = useAtomValue(uploadsAtom);
  const load = useSetAtom(loadLabProjectsAtom);
  const create = useSetAtom(createLabProjectAtom);
  const remove = useSetAtom(deleteLabProjectAtom);
  const setModal = useSetAtom(modalAtom);

  // Read on arrival, then polled while something waits (an upload, a pending project).
  const waiting = uploads.length > 0 || projects.some((project) => project.pending);
  useQuery('laboratory.list', (signal) => load(signal), { refreshMs: waiting ? PENDING_POLL_MS : 0 });

  const close = useCallback(() => setModal(null), [setModal]);
  const openNew = () =>
    setModal(
      <NewLabProjectDialog
        onClose={close}
        onCreate={(fields) => {
          close();
          void create(fields);
        }}
      />,
    );
  const askDelete = (project: LabProjectListItem) =>
    setModal(
      <DeleteDialog
        name={project.name}
        onAnswer={(confirmed) => {
          close();
          if (confirmed) void remove(project);
        }}
      />,
    );

  const columns: Column<LabProjectListItem>[] = [
    {
      id: 'name',
      header: M.name,
      cell: (project) => (
        <span className="lab-name">
          {project.pending ? (
            <>
              <span className="spinner" role="status" aria-label={M.pending} data-testid={`lab-pending-${project.id}`} />
              {project.name}
            </>
          ) : (
            <Link to={`/alphonse/project/${project.id}`} data-testid={`lab-link-${project.id}`}>
              {project.name}
            </Link>
          )}
        </span>
      ),
    },
    { id: 'usersCount', header: M.members, cell: (project) => (project.pending ? '' : count(project.usersCount)), className: 'number' },
    { id: 'matchedCount', header: M.matched, cell: (project) => (project.pending ? '' : count(project.matchedCount)), className: 'number' },
    { id: 'tagsCount', header: M.tags, cell: (project) => count(project.tagsCount), className: 'number' },
  ];
  if (canWrite) {
    columns.push({
      id: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      cell: (project) => (
        <button
          type="button"
          className="link danger"
          disabled={project.pending}
          onClick={() => askDelete(project)}
          data-testid={`lab-delete-${project.id}`}
        >
          {M.delete}
        </button>
      ),
    });
  }

  return (
    <section className="lab-list-page" aria-label={M.title}>
      <div className="toolbar">
        <h1 className="lab-title">{M.title}</h1>
        {canWrite && (
          <button type="button" className="primary" onClick={openNew} data-testid="lab-new">
            {M.newProject}
          </button>
        )}
      </div>
      {interrupted.map((load) => (
        <div key={load.projectName} className="alert warning" role="alert" data-testid="lab-interrupted">
          <p>{M.loadInterrupted(load.projectName)}</p>
          {canWrite && (
            <button type="button" onClick={() => void create(load)} data-testid="lab-load-again">
              {M.loadAgain}
            </button>
          )}
          <button type="button" className="secondary" onClick={() => setInterrupted((loads) => loads.filter((item) => item !== load))}>
            {M.dismissInterrupted}
          </button>
        </div>
      ))}
      <UploadProgressList />
      <DataTable
        testId="lab-table"
        columns={columns}
        rows={projects}
        rowKey={(project) => project.id}
        rowAttributes={(project) => ({ 'data-testid': `lab-row-${project.id}`, 'data-name': project.name })}
        loading={loading && projects.length === 0}
        emptyText={loading ? undefined : M.noProject}
      />
    </section>
  );
}
