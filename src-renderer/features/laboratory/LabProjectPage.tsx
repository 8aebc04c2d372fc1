import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { CONFLICT_MESSAGES } from '@shared/messages/conflicts';
import { LAB_MESSAGES as M } from '@shared/messages/laboratory';
import { AccessTab } from './AccessTab';
import { LocalDraftOffer } from '../../ui/DraftOffer';
import {
  canWriteLabAtom,
  labConflictAtom,
  labDirtyAtom,
  labProjectAtom,
  labProjectErrorAtom,
  loadLabProjectAtom,
  labValuesAtom,
  resumeTagDraftsAtom,
  savedLabValuesAtom,
  type LabDraftValues,
} from './atoms';
import { LabConflict } from './LabConflict';
import { saveLabProjectAtom } from './save';
import { StatsTab } from './StatsTab';
import { TagsTab } from './TagsTab';
import './laboratory.css';
import { useQuery } from '../../lib/use-query';

type TabId = 'tags' | 'stats' | 'access';
const TABS: { id: TabId; label: string }[] = [
  { id: 'tags', label: M.tabTags },
  { id: 'stats', label: M.tabStats },
  { id: 'access', label: M.tabAccess },
];

/** /alphonse/project/{id} (spec §2): three tabs (Tags, Stats, Access) and Save. */
export default function LabProjectPage() {
  const id = Number(useParams().id);
  const project = useAtomValue(labProjectAtom);
  const error = useAtomValue(labProjectErrorAtom);
  const dirty = useAtomValue(labDirtyAtom);
  const canWrite = useAtomValue(canWriteLabAtom);
  const conflict = useAtomValue(labConflictAtom);
  const load = useSetAtom(loadLabProjectAtom);
  const save = useSetAtom(saveLabProjectAtom);
  const [tab, setTab] = useState<TabId>('tags');
  const [saving, setSaving] = useState(false);

  useQuery(['laboratory.get', id], (signal) => load(id, signal));

  if (error) {
    return (
      <section className="lab-project-page">
        <Link to="/alphonse">← {M.title}</Link>
        {/* The screen keeps its one <h1> when the project cannot be shown. */}
        <h1 className="visually-hidden">{M.title}</h1>
        <p role="alert">{error}</p>
      </section>
    );
  }
  if (!project || project.id !== id) return <p className="loading">Loading...</p>;

  return (
    <section className="lab-project-page" aria-label={project.name}>
      <div className="toolbar">
        <Link to="/alphonse">← {M.title}</Link>
        <h1 className="lab-title" data-testid="lab-project-name">
          {project.name}
        </h1>
        <span className="lab-figures" data-testid="lab-project-figures">
          {project.usersCount.toLocaleString('fr-FR')} {M.members.toLowerCase()} · {project.matchedCount.toLocaleString('fr-FR')}{' '}
          {M.matched.toLowerCase()}
        </span>
        {conflict && (
          <span className="lab-not-saved" role="status" data-testid="lab-not-saved">
            {CONFLICT_MESSAGES.notSaved}
          </span>
        )}
        {canWrite && (
          <button
            type="button"
            className="primary lab-save"
            disabled={saving}
            onClick={async () => {
              setSaving(true);
              await save();
              setSaving(false);
            }}
            data-testid="lab-save"
          >
            {M.save}
            {dirty ? ' *' : ''}
          </button>
        )}
      </div>
      {!canWrite && <p className="lab-read-only">{M.readOnly}</p>}
      {canWrite && <LabConflict />}
      {canWrite && <LabLocalDraft projectId={project.id} />}
      <div role="tablist" className="lab-tabs" aria-label={project.name}>
        {TABS.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            id={`lab-tab-${item.id}`}
            aria-selected={tab === item.id}
            aria-controls={`lab-panel-${item.id}`}
            className={tab === item.id ? 'lab-tab active' : 'lab-tab'}
            onClick={() => setTab(item.id)}
            data-testid={`lab-tab-${item.id}`}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`lab-panel-${tab}`} aria-labelledby={`lab-tab-${tab}`} className="lab-panel">
        {tab === 'tags' && <TagsTab />}
        {tab === 'stats' && <StatsTab />}
        {tab === 'access' && <AccessTab />}
      </div>
    </section>
  );
}

/**
 * The project's tags as edited and not saved, kept as a local draft (docs/architecture.md, "Versions and
 * conflicts") and offered back when the project reopens, flagged when the project was saved since; Save clears it.
 */
function LabLocalDraft({ projectId }: { projectId: number }) {
  const values = useAtomValue(labValuesAtom);
  const saved = useAtomValue(savedLabValuesAtom);
  const resume = useSetAtom(resumeTagDraftsAtom);
  return (
    <LocalDraftOffer<LabDraftValues>
      recordKey={`labProject:${projectId}`}
      values={values}
      pristine={saved}
      version={saved?.version ?? null}
      onResume={resume}
    />
  );
}
