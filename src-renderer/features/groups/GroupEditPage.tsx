import { useAtom, useAtomValue, useSetAtom, useStore } from 'jotai';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { GROUP_MESSAGES } from '@shared/messages';
import { NODE_LABELS, isGroupLabel, type NodeLabel } from '@shared/rules/audiences';
import { NODE_SEARCH_DEBOUNCE_MS, groupDisplay, groupEditorPath } from '@shared/rules/groups';
import { canOpenRoute } from '@shared/screens';
import { HistoryPanel } from '../audiences';
import { rolesAtom } from '../../lib/session';
import { useUnsavedChangesGuard } from '../../lib/unsaved-changes';
import { useQuery } from '../../lib/use-query';
import { TextField } from '../../ui/TextField';
import { PresenceLine } from '../../ui/PresenceLine';
import { GroupConflict, GroupLocalDraft } from './GroupConflict';
import {
  addSelectedAtom,
  groupAtom,
  groupDirtyAtom,
  groupLoadFailedAtom,
  groupMembersAtom,
  groupNameAtom,
  groupNameErrorAtom,
  groupSavingAtom,
  loadGroupAtom,
  removeMemberAtom,
  runSearchAtom,
  searchingAtom,
  searchLabelAtom,
  searchResultsAtom,
  searchSelectionAtom,
  searchTermAtom,
  saveGroupAtom,
  toggleResultAtom,
} from './atoms/editor';
import './groups.css';

/** Labels a group may hold (not Area: an audience's area is its own field). */
const SEARCH_LABELS = NODE_LABELS.filter((label) => label !== 'Area');

/** Search results show the term in bold only for terms of 3 characters or more (spec §5). */
function Highlighted(props: { text: string; term: string }) {
  const term = props.term.trim();
  if (term.length < 3) return <>{props.text}</>;
  const at = props.text.toLowerCase().indexOf(term.toLowerCase());
  if (at < 0) return <>{props.text}</>;
  return (
    <>
      {props.text.slice(0, at)}
      <b>{props.text.slice(at, at + term.length)}</b>
      {props.text.slice(at + term.length)}
    </>
  );
}

function GroupToolbar({ name, label }: { name: string; label: string }) {
  const roles = useAtomValue(rolesAtom);
  return (
    <div className="toolbar">
      <h1 className="screen-title">{`Groupe ${name}`}</h1>
      {/* The group list is ADMIN's (spec §6): a CSM_LEAD editing a group is not sent to a 403. */}
      {canOpenRoute('/groupes', roles) && <Link to="/groupes">← Groupes</Link>}
      <span className="count">{label}</span>
    </div>
  );
}

/** /group/{label}/{id} (spec §2 Group editor): name, members with removal, a search bar to add items, Save. */
export default function GroupEditPage() {
  const params = useParams();
  const label = params.label;
  const id = Number(params.id);
  const valid = (label === 'OrGroup' || label === 'AndGroup') && Number.isInteger(id) && id > 0;

  const group = useAtomValue(groupAtom);
  const loadFailed = useAtomValue(groupLoadFailedAtom);
  const [name, setName] = useAtom(groupNameAtom);
  const [nameError, setNameError] = useAtom(groupNameErrorAtom);
  const members = useAtomValue(groupMembersAtom);
  const dirty = useAtomValue(groupDirtyAtom);
  const saving = useAtomValue(groupSavingAtom);
  const [term, setTerm] = useAtom(searchTermAtom);
  const [searchLabel, setSearchLabel] = useAtom(searchLabelAtom);
  const results = useAtomValue(searchResultsAtom);
  const selection = useAtomValue(searchSelectionAtom);
  const searching = useAtomValue(searchingAtom);
  const load = useSetAtom(loadGroupAtom);
  const save = useSetAtom(saveGroupAtom);
  const remove = useSetAtom(removeMemberAtom);
  const runSearch = useSetAtom(runSearchAtom);
  const toggle = useSetAtom(toggleResultAtom);
  const addSelected = useSetAtom(addSelectedAtom);
  const store = useStore();
  // Leaving with unsaved changes asks first (docs/content.md, unsaved changes).
  useUnsavedChangesGuard(() => store.get(groupDirtyAtom));

  useEffect(() => {
    setTerm('');
    if (valid) void load({ label, id });
  }, [valid, label, id, load, setTerm]);

  // Node search, 320 ms after the last key (spec §9); the kernel drops the answer of a search typed over.
  useQuery(['groups.editor.search', group?.id, term.trim(), searchLabel], (signal) => runSearch(signal), { debounceMs: NODE_SEARCH_DEBOUNCE_MS });

  if (!valid || loadFailed) return <p className="screen-error">Groupe introuvable</p>;
  if (!group || group.id !== id) return <p className="count">Chargement…</p>;

  const { shown, limited } = groupDisplay(members);
  return (
    <section className="group-editor" aria-label={`Groupe ${group.name}`}>
      <div className="group-editor-main">
        <GroupToolbar name={group.name} label={group.label} />
        <GroupConflict />
        <PresenceLine record="group" id={group.id} />
        <GroupLocalDraft />
        <TextField
          label="Nom"
          value={name}
          onChange={(value) => {
            setName(value);
            if (value.trim()) setNameError(null);
          }}
          error={nameError}
          testId="group-name"
        />

        <div>
          <h3>Éléments ({members.length})</h3>
          {limited && (
            <p className="group-limit" data-testid="group-limit">
              {GROUP_MESSAGES.groupDisplayLimited}
            </p>
          )}
          {shown.length === 0 ? (
            <p className="table-empty">Aucun élément</p>
          ) : (
            <ul className="group-members" data-testid="group-members">
              {shown.map((member) => (
                <li key={`${member.node.label}:${member.node.id}`} data-testid="group-member" data-node={member.node.id}>
                  <span className="node-label">{member.node.label}</span>
                  {isGroupLabel(member.node.label) ? (
                    <Link to={groupEditorPath(member.node)}>{member.node.name}</Link>
                  ) : (
                    <span>{member.node.name}</span>
                  )}
                  {member.kind === 'not' && <span className="count">(Not)</span>}
                  <button
                    type="button"
                    className="link danger"
                    onClick={() => remove(member)}
                    aria-label={`Retirer ${member.node.name}`}
                    data-testid={`group-member-remove-${member.node.id}`}
                  >
                    Retirer
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>

        <div className="node-search">
          <input
            type="search"
            placeholder="Rechercher un élément..."
            aria-label="Rechercher un élément à ajouter"
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            data-testid="group-search"
          />
          <select
            aria-label="Type d'élément"
            value={searchLabel ?? ''}
            onChange={(event) => setSearchLabel((event.target.value || undefined) as NodeLabel | undefined)}
            data-testid="group-search-label"
          >
            <option value="">Tous</option>
            {SEARCH_LABELS.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
          <button type="button" className="secondary" disabled={selection.size === 0} onClick={() => addSelected()} data-testid="group-search-add">
            Ajouter ({selection.size})
          </button>
          {searching && <span className="count">Recherche…</span>}
        </div>
        {results.length > 0 && (
          <ul className="node-results" data-testid="group-search-results">
            {results.map((node) => (
              <li key={node.id}>
                <label>
                  <input type="checkbox" checked={selection.has(node.id)} onChange={() => toggle(node.id)} data-testid={`group-result-${node.id}`} />
                  <span className="node-label">{node.label}</span>
                  <span>
                    <Highlighted text={node.name} term={term} />
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}

        <div className="toolbar">
          <button type="button" className="primary" disabled={saving} onClick={() => void save()} data-testid="group-save">
            Save
          </button>
          {dirty && <span className="count">Modifications non enregistrées</span>}
        </div>
      </div>
      <HistoryPanel subject={{ kind: 'group', id: group.id }} reloadKey={group.updatedAt} />
    </section>
  );
}
