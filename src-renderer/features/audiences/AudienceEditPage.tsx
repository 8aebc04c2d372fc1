import { useAtom, useAtomValue, useSetAtom, useStore } from 'jotai';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { AUDIENCE_MESSAGES } from '@shared/messages';
import { audienceSizers } from '@shared/access-rules';
import { isAllowed } from '@shared/roles';
import {
  LIVE_SIZE_DEBOUNCE_MS,
  NODE_SEARCH_DEBOUNCE_MS,
  TESTER_REFRESH_MS,
  USER_SEARCH_DEBOUNCE_MS,
  eventsFor,
  groupByLabel,
  hasNode,
  isEvent,
  targetsExperts,
  type EditorRelationship,
} from '@shared/rules/audience-editor';
import { AREAS, AUDIENCE_TYPES, isGroupLabel, type Area, type AudienceType } from '@shared/rules/audiences';
import { modalAtom, useConfirm } from '../../lib/modal';
import { rolesAtom } from '../../lib/session';
import { useUnsavedChangesGuard } from '../../lib/unsaved-changes';
import { addKeywordAtom, addNodeAtom, createGroupAtom, deleteGroupNodeAtom, removeRelationshipAtom, updateRelationshipAtom } from './atoms/criteria';
import { audienceFieldErrorsAtom, definitionAtom, dirtyAtom, draftAtom, type EditorNode } from './atoms/draft';
import { setAreaAtom, setCatalogAtom, setNameAtom, setTypeAtom } from './atoms/fields';
import { closeAudienceAtom, editorStatusAtom, openAudienceAtom } from './atoms/open';
import { saveAudienceAtom, savingAtom } from './atoms/save';
import {
  chooseTesterUserAtom,
  liveSizeAtom,
  nodeResultsAtom,
  nodeResultsTermAtom,
  nodeTermAtom,
  refreshMembershipAtom,
  refreshSizeAtom,
  resetLiveAtom,
  searchNodesAtom,
  searchTesterUsersAtom,
  testerAnswerAtom,
  testerResultsAtom,
  testerTermAtom,
  testerUserAtom,
} from './atoms/live';
import { EmailListDialog, NewKeywordDialog } from './dialogs';
import { NewGroupDialog } from '../groups';
import { Highlighted } from './Highlighted';
import AudienceHistoryPanel from './history/AudienceHistoryPanel';
import { TYPE_LABELS, labelName } from './labels';
import { PresenceLine } from '../../ui/PresenceLine';
import { AudienceConflict, AudienceLocalDraft } from './AudienceConflict';
import { Check, X } from 'lucide-react';

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

/**
 * The audience's name and type; what 'Sauvegarder' refused of them is said beside them while still wrong (an emptied
 * name is not given its old one back, an audience with no type is not saved).
 */
function NameAndType() {
  const draft = useAtomValue(draftAtom)!;
  const errors = useAtomValue(audienceFieldErrorsAtom);
  const setName = useSetAtom(setNameAtom);
  const setType = useSetAtom(setTypeAtom);
  const nameError = errors.name && !draft.name.trim() ? errors.name : null;
  const typeError = errors.type && !draft.type ? errors.type : null;
  return (
    <>
      <span className="toolbar-field">
        <input
          aria-label={AUDIENCE_MESSAGES.audienceNameLabel}
          placeholder={draft.id === null ? 'Audience' : ''}
          value={draft.name}
          maxLength={200}
          aria-invalid={nameError ? true : undefined}
          onChange={(event) => setName(event.target.value)}
          data-testid="audience-name"
        />
        {nameError && (
          <span className="field-error" role="alert" data-testid="audience-name-error">
            {nameError}
          </span>
        )}
      </span>
      <span className="toolbar-field">
        <select
          aria-label={AUDIENCE_MESSAGES.audienceTypeLabel}
          value={draft.type ?? ''}
          aria-invalid={typeError ? true : undefined}
          onChange={(event) => setType((event.target.value || null) as AudienceType | null)}
          data-testid="audience-type"
        >
          <option value="">—</option>
          {AUDIENCE_TYPES.map((type) => (
            <option key={type} value={type}>
              {TYPE_LABELS[type]}
            </option>
          ))}
        </select>
        {typeError && (
          <span className="field-error" role="alert" data-testid="audience-type-error">
            {typeError}
          </span>
        )}
      </span>
    </>
  );
}

function AudienceEditor() {
  const draft = useAtomValue(draftAtom)!;
  const roles = useAtomValue(rolesAtom);
  const isAdmin = isAllowed(audienceSizers, roles);
  const saving = useAtomValue(savingAtom);
  const setArea = useSetAtom(setAreaAtom);
  const setCatalog = useSetAtom(setCatalogAtom);
  const save = useSetAtom(saveAudienceAtom);
  const setModal = useSetAtom(modalAtom);
  const createGroup = useSetAtom(createGroupAtom);
  const addKeyword = useSetAtom(addKeywordAtom);
  const closeModal = () => setModal(null);

  const openNewGroup = () =>
    setModal(
      <NewGroupDialog
        onClose={closeModal}
        onCreate={async (group) => {
          // Closes after the attempt either way: a failure shows in the editor's error line.
          await createGroup(group);
          return true;
        }}
      />,
    );
  const openNewKeyword = () =>
    setModal(
      <NewKeywordDialog
        onClose={closeModal}
        onAdd={async (keyword) => {
          await addKeyword(keyword);
          closeModal();
        }}
      />,
    );
  const openEmailList = () => setModal(<EmailListDialog onClose={closeModal} onAdded={closeModal} />);

  return (
    <section className="audience-editor" aria-label="Audience" data-testid="audience-editor" data-audience-id={draft.id ?? 'new'}>
      <div className="toolbar">
        {/* The name is shown in its field: the heading is for screen readers (one <h1> per screen). */}
        <h1 className="visually-hidden">{`Audience ${draft.name}`}</h1>
        <Link to="/audiences">← Audiences</Link>
        <NameAndType />
        <select aria-label="Area" value={draft.area} onChange={(event) => void setArea(event.target.value as Area)} data-testid="audience-area">
          {AREAS.map((area) => (
            <option key={area} value={area}>
              {area}
            </option>
          ))}
        </select>
        <label className="switch">
          <input type="checkbox" checked={draft.isInCatalog} onChange={(event) => setCatalog(event.target.checked)} data-testid="audience-catalog" />
          Catalogue
        </label>
        <button type="button" className="primary" disabled={saving} onClick={() => void save()} data-testid="audience-save">
          Sauvegarder
        </button>
      </div>
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
      <div className="toolbar">
        <button type="button" className="secondary" onClick={openNewGroup} data-testid="audience-new-group">
          Nouveau groupe
        </button>
        <button type="button" className="secondary" onClick={openEmailList} data-testid="audience-new-list">
          Nouvelle liste
        </button>
        <button type="button" className="secondary" onClick={openNewKeyword} data-testid="audience-new-keyword">
          Nouveau mot-clé
        </button>
      </div>
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

/** The criteria search bar: node search debounced 320 ms, 25 results, bolded for terms of 3+ characters. */
function CriteriaSearch() {
  const draft = useAtomValue(draftAtom)!;
  const [term, setTerm] = useAtom(nodeTermAtom);
  const found = useAtomValue(nodeResultsAtom);
  const answered = useAtomValue(nodeResultsTermAtom);
  // Spec §5: items already attached are left out, saved or not (the server leaves out the saved ones).
  const results = found.filter((node) => !hasNode(draft.relationships, node));
  const search = useSetAtom(searchNodesAtom);
  const add = useSetAtom(addNodeAtom);
  const audienceId = draft.id;

  useEffect(() => {
    const timer = setTimeout(() => void search({ term, audienceId }), NODE_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [term, audienceId, search]);
  useEffect(() => () => setTerm(''), [setTerm]);

  const choose = async (node: EditorNode) => {
    setTerm('');
    await add(node);
  };

  return (
    <div className="criteria-search">
      <input
        type="search"
        placeholder="Rechercher un critère..."
        aria-label="Rechercher un critère"
        value={term}
        onChange={(event) => setTerm(event.target.value)}
        data-testid="criteria-search"
      />
      {term.trim() && results.length > 0 && (
        <ul className="criteria-results" role="listbox" data-testid="criteria-results">
          {results.map((node) => (
            <li key={`${node.label}-${node.id}`} role="option" aria-selected={false}>
              <button type="button" className="link" onClick={() => void choose(node)} data-testid={`criteria-result-${node.label}-${node.id}`}>
                <span className="node-label">{labelName(node.label)}</span> <Highlighted text={node.name} term={term} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {term.trim() && answered === term.trim() && results.length === 0 && (
        <p className="muted criteria-no-result" role="status" data-testid="criteria-no-result">
          {AUDIENCE_MESSAGES.criteriaNoResult}
        </p>
      )}
    </div>
  );
}

function RelationshipGroups(props: { isAdmin: boolean }) {
  const draft = useAtomValue(draftAtom)!;
  const size = useAtomValue(liveSizeAtom);
  const tester = useAtomValue(testerAnswerAtom);
  const groups = groupByLabel(draft.relationships);
  if (groups.length === 0)
    return (
      <p className="muted" data-testid="criteria-empty">
        Aucun critère
      </p>
    );
  return (
    <>
      {groups.map((group) => {
        const groupSize = size?.labels.find((entry) => entry.label === group.label)?.size;
        const groupMember = tester?.labels.find((entry) => entry.label === group.label)?.member;
        return (
          <section key={group.label} className="relationship-group" data-testid={`label-group-${group.label}`}>
            <h3>
              {labelName(group.label)}
              {props.isAdmin && groupSize !== undefined && (
                <span className="count" data-testid={`label-size-${group.label}`} data-size={groupSize}>
                  {' '}
                  — {AUDIENCE_MESSAGES.userCount(groupSize)}
                </span>
              )}
              {groupMember !== undefined && (
                <span className={groupMember ? 'tester-yes' : 'tester-no'} data-testid={`label-member-${group.label}`}>
                  {' '}
                  {groupMember ? <Check size={14} aria-label="membre" /> : <X size={14} aria-label="non membre" />}
                </span>
              )}
            </h3>
            <ul>
              {group.relationships.map((relationship) => (
                <RelationshipRow key={`${relationship.node.label}-${relationship.node.id}`} relationship={relationship} isAdmin={props.isAdmin} />
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}

function RelationshipRow(props: { relationship: EditorRelationship; isAdmin: boolean }) {
  const { node, kind, event, caping } = props.relationship;
  const update = useSetAtom(updateRelationshipAtom);
  const remove = useSetAtom(removeRelationshipAtom);
  const deleteGroup = useSetAtom(deleteGroupNodeAtom);
  const confirm = useConfirm();
  const events = eventsFor(node.label);
  const group = isGroupLabel(node.label);
  const testId = `relationship-${node.label}-${node.id}`;
  return (
    <li className="relationship" data-testid={testId}>
      <button
        type="button"
        className={kind === 'not' ? 'kind kind-not' : 'kind'}
        aria-label={`Inverser ${node.name}`}
        onClick={() => update(node, { kind: kind === 'not' ? 'required' : 'not' })}
        data-testid={`${testId}-kind`}
      >
        {kind === 'not' ? 'Not' : 'Req'}
      </button>
      <span className="relationship-name">
        {group && props.isAdmin ? (
          <Link to={`/group/${node.label}/${node.id}`} data-testid={`${testId}-group-link`}>
            {node.name}
          </Link>
        ) : (
          node.name
        )}
      </span>
      {events.length > 0 && (
        <select
          aria-label={`Événement de ${node.name}`}
          value={event ?? ''}
          onChange={(change) => update(node, { event: isEvent(change.target.value) ? change.target.value : null })}
          data-testid={`${testId}-event`}
        >
          <option value="">Auto</option>
          {events.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      )}
      {events.length > 0 && (
        <input
          className="caping"
          inputMode="numeric"
          aria-label={`Caping de ${node.name}`}
          placeholder="1"
          value={caping ?? ''}
          onChange={(change) => update(node, { caping: change.target.value.replace(/\D/g, '').slice(0, 6) || null })}
          data-testid={`${testId}-caping`}
        />
      )}
      {group ? (
        <>
          <button type="button" className="link" onClick={() => remove(node)} data-testid={`${testId}-unlink`}>
            Délier
          </button>
          <button
            type="button"
            className="link danger"
            onClick={async () => {
              if (await confirm(`Supprimer le groupe ${node.name} ?`)) await deleteGroup(node);
            }}
            data-testid={`${testId}-delete`}
          >
            Supprimer
          </button>
        </>
      ) : (
        <button
          type="button"
          className="link danger"
          aria-label={`Retirer ${node.name}`}
          onClick={() => remove(node)}
          data-testid={`${testId}-remove`}
        >
          <X size={14} aria-hidden />
        </button>
      )}
    </li>
  );
}

/** Beyond the spec: the size of the unsaved definition, recomputed a moment after each change (ADMIN only). */
function LiveSizePanel() {
  const definition = useAtomValue(definitionAtom);
  const size = useAtomValue(liveSizeAtom);
  const refresh = useSetAtom(refreshSizeAtom);
  useEffect(() => {
    if (!definition) return;
    const timer = setTimeout(() => void refresh(definition), LIVE_SIZE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [definition, refresh]);
  const current = size !== null && size.of === definition;
  return (
    <section aria-label="Taille de l'audience" data-testid="live-size-panel">
      <h3>Taille de l'audience</h3>
      <p
        className={current ? 'live-size' : 'live-size stale'}
        data-testid="live-size"
        data-size={size?.size ?? ''}
        data-current={current ? 'true' : 'false'}
      >
        {size === null ? 'Calcul…' : AUDIENCE_MESSAGES.userCount(size.size)}
      </p>
    </section>
  );
}

/** The live tester: a user searched by e-mail (1 s debounce), then membership refreshed 900 ms after a change. */
function LiveTester() {
  const definition = useAtomValue(definitionAtom);
  const [term, setTerm] = useAtom(testerTermAtom);
  const results = useAtomValue(testerResultsAtom);
  const user = useAtomValue(testerUserAtom);
  const answer = useAtomValue(testerAnswerAtom);
  const search = useSetAtom(searchTesterUsersAtom);
  const choose = useSetAtom(chooseTesterUserAtom);
  const refresh = useSetAtom(refreshMembershipAtom);
  // The term whose search last came back: 'Recherche…' shows while the term typed has no answer yet.
  const [answeredTerm, setAnsweredTerm] = useState<string | null>(null);
  const searching = term.trim() !== '' && answeredTerm !== term;

  useEffect(() => {
    if (!term.trim()) return;
    const timer = setTimeout(() => void search(term).finally(() => setAnsweredTerm(term)), USER_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [term, search]);
  useEffect(() => {
    if (!definition || !user) return;
    const timer = setTimeout(() => void refresh(definition), TESTER_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [definition, user, refresh]);

  return (
    <section aria-label="Testeur" data-testid="live-tester">
      <h3>Testeur</h3>
      <input
        type="search"
        placeholder="E-mail de l'utilisateur"
        aria-label="E-mail de l'utilisateur"
        value={term}
        onChange={(event) => setTerm(event.target.value)}
        data-testid="tester-search"
      />
      {term.trim() && !user && results.length > 0 && (
        <ul className="criteria-results" data-testid="tester-results">
          {results.map((found) => (
            <li key={found.id}>
              <button
                type="button"
                className="link"
                onClick={() => {
                  choose(found);
                  setTerm(found.email);
                }}
                data-testid={`tester-user-${found.id}`}
              >
                {found.email}
                {found.name ? ` (${found.name})` : ''}
              </button>
            </li>
          ))}
        </ul>
      )}
      {searching && !user && <p className="muted">Recherche…</p>}
      {/* The search of the term shown came back empty: said so, not a blank (issue 36, item 12). */}
      {!searching && term.trim() && !user && answeredTerm === term && results.length === 0 && (
        <p className="muted" data-testid="tester-no-result">
          {AUDIENCE_MESSAGES.criteriaNoResult}
        </p>
      )}
      {user && (
        <div data-testid="tester-answer" data-user-id={user.id} data-member={answer === null ? '' : String(answer.member)}>
          <p>
            {user.email}{' '}
            <button
              type="button"
              className="link"
              onClick={() => {
                choose(null);
                setTerm('');
              }}
              data-testid="tester-clear"
            >
              Changer
            </button>
          </p>
          <p className={answer?.member ? 'tester-yes' : 'tester-no'} data-testid="tester-verdict">
            {answer === null ? 'Vérification…' : answer.member ? AUDIENCE_MESSAGES.testerMember : AUDIENCE_MESSAGES.testerNotMember}
          </p>
        </div>
      )}
    </section>
  );
}
