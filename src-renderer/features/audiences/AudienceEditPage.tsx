import { useAtomValue, useSetAtom, useStore } from 'jotai';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { AUDIENCE_MESSAGES } from '@shared/messages';
import { audienceSizers } from '@shared/access-rules';
import { isAllowed } from '@shared/roles';
import { targetsExperts } from '@shared/rules/audience-editor';
import { rolesAtom } from '../../lib/session';
import { useUnsavedChangesGuard } from '../../lib/unsaved-changes';
import { dirtyAtom, draftAtom } from './atoms/draft';
import { resetLiveAtom } from './atoms/live';
import { closeAudienceAtom, editorStatusAtom, openAudienceAtom } from './atoms/open';
import { AudienceToolbar } from './AudienceToolbar';
import { CriteriaSearch } from './CriteriaSearch';
import AudienceHistoryPanel from './history/AudienceHistoryPanel';
import { LiveSizePanel } from './LiveSizePanel';
import { LiveTester } from './LiveTester';
import { NewCriterionButtons } from './NewCriterionButtons';
import { RelationshipGroups } from './RelationshipGroups';
import { PresenceLine } from '../../ui/PresenceLine';
import { AudienceConflict, AudienceLocalDraft } from './AudienceConflict';

/** The audience editor, /audiences/{id} (spec §2, §4, §5): CSM_LEAD and ADMIN (the guard sends others to /403). */
export default function AudienceEditPage() {
  const { id = 'new' } = useParams();
  const navigate = useNavigate();
  const open = useSetAtom(openAudienceAtom);
  const close = useSetAtom(closeAudienceAtom);
  const resetLive = useSetAtom(resetLiveAtom);
  const status = useAtomValue(editorStatusAtom);
  const draft = useAtomValue(draftAtom);
  const store = useStore();
  // Leaving with unsaved changes asks first (docs/content.md, unsaved changes).
  useUnsavedChangesGuard(() => store.get(dirtyAtom));

  useEffect(() => {
    void open(id);
  }, [id, open]);
  useEffect(
    () => () => {
      close();
      resetLive();
    },
    [close, resetLive],
  );
  useEffect(() => {
    if (status === 'missing') navigate('/audiences', { replace: true });
  }, [status, navigate]);
  // A new audience gets its id on its first save: the address follows.
  useEffect(() => {
    if (id === 'new' && draft?.id) navigate(`/audiences/${draft.id}`, { replace: true });
  }, [id, draft?.id, navigate]);

  if (!draft || status !== 'ready') return <p className="centered">Chargement…</p>;
  return <AudienceEditor />;
}

/** The open audience: its toolbar, warnings, criteria, and beside them its size, the tester, adverts and history. */
function AudienceEditor() {
  const draft = useAtomValue(draftAtom)!;
  const roles = useAtomValue(rolesAtom);
  const isAdmin = isAllowed(audienceSizers, roles);
  return (
    <section className="audience-editor" aria-label="Audience" data-testid="audience-editor" data-audience-id={draft.id ?? 'new'}>
      <AudienceToolbar />
      <AudienceConflict />
      <PresenceLine record="audience" id={draft.id} />
      <AudienceLocalDraft />
      {!draft.type && (
        <p className="warning" role="alert" data-testid="audience-type-prompt">
          {AUDIENCE_MESSAGES.chooseType}
        </p>
      )}
      {!targetsExperts(draft.relationships) && (
        <p className="warning" data-testid="audience-expert-warning">
          {AUDIENCE_MESSAGES.noExpertTarget}
        </p>
      )}
      <CriteriaSearch />
      <NewCriterionButtons />
      <div className="audience-columns">
        <div className="audience-criteria">
          <RelationshipGroups isAdmin={isAdmin} />
        </div>
        <aside className="audience-side">
          {isAdmin && <LiveSizePanel />}
          <LiveTester />
          <section aria-label="Publicités associées" data-testid="audience-adverts">
            <h3>Publicités associées</h3>
            {draft.adverts.length === 0 ? (
              <p className="muted">Aucune publicité</p>
            ) : (
              <ul>
                {draft.adverts.map((advert) => (
                  <li key={advert.id}>
                    <Link to={`/adverts/edit/${advert.id}`}>
                      {advert.id} — {advert.name}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
          {draft.id !== null && <AudienceHistoryPanel audienceId={draft.id} />}
        </aside>
      </div>
    </section>
  );
}
