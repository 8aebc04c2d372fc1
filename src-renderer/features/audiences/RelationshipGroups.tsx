import { useAtomValue, useSetAtom } from 'jotai';
import { Link } from 'react-router-dom';
import { AUDIENCE_MESSAGES } from '@shared/messages';
import { eventsFor, groupByLabel, isEvent, type EditorRelationship } from '@shared/rules/audience-editor';
import { isGroupLabel } from '@shared/rules/audiences';
import { Check, X } from 'lucide-react';
import { useConfirm } from '../../lib/modal';
import { deleteGroupNodeAtom, removeRelationshipAtom, updateRelationshipAtom } from './atoms/criteria';
import { draftAtom } from './atoms/draft';
import { liveSizeAtom, testerAnswerAtom } from './atoms/live';
import { labelName } from './labels';

/** The audience's criteria grouped by label, each group with its size (ADMIN) and the tested user's membership. */
export function RelationshipGroups(props: { isAdmin: boolean }) {
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
