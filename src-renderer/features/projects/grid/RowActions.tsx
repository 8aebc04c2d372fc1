import { useSetAtom } from 'jotai';
import { ChartColumn, Copy, FilePlus2, Link2, PackageSearch, Trash2, Unlink } from 'lucide-react';
import type { Target } from '@shared/contract/projects/targets';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { hasFeedbackMenu, typeLink } from '@shared/rules/projects';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { TargetInventoryCheck } from '../../inventory';
import { deleteTargetAtom, detachTargetAtom, duplicateTargetAtom, newAdvertPathAtom } from '../edit-atoms';

const ICON = 16;

/** Opens a path of the app in another tab, the grid staying where it is. */
export function openInNewTab(event: { preventDefault(): void }, path: string) {
  event.preventDefault();
  window.open(path, '_blank', 'noopener');
}

/**
 * A row's actions, icons each named by its aria-label and title (the sticky column stays narrow, the grid's columns
 * in sight): inventory, feedback, attach, create or detach its advert, duplicate, delete.
 */
export function RowActions(props: { target: Target; rowIndex: number; canEdit: boolean; onAttach(): void }) {
  const { target } = props;
  const duplicate = useSetAtom(duplicateTargetAtom);
  const remove = useSetAtom(deleteTargetAtom);
  const detach = useSetAtom(detachTargetAtom);
  const newAdvertPath = useSetAtom(newAdvertPathAtom);
  const link = typeLink(target.type);
  const linked = target.advertId != null || target.toolId != null;
  const named = (label: string) => ({ 'aria-label': label, title: label });
  return (
    <span className="row-actions">
      {target.goal.views > 0 && (
        <TargetInventoryCheck targetId={target.id} testId={`target-inventory-${props.rowIndex}`} icon={<PackageSearch size={ICON} aria-hidden />} />
      )}
      {hasFeedbackMenu(target) && target.advertId != null && (
        <button
          type="button"
          className="icon"
          {...named('Feedback')}
          onClick={(event) => openInNewTab(event, `/adverts/edit/${target.advertId}`)}
          data-testid={`target-feedback-${props.rowIndex}`}
        >
          <ChartColumn size={ICON} aria-hidden />
        </button>
      )}
      {props.canEdit && link === 'advert' && !linked && (
        <>
          <button
            type="button"
            className="icon"
            {...named(PROJECT_MESSAGES.searchAdvertTitle)}
            onClick={props.onAttach}
            data-testid={`target-attach-${props.rowIndex}`}
          >
            <Link2 size={ICON} aria-hidden />
          </button>
          <button
            type="button"
            className="icon"
            {...named('Créer une publicité')}
            data-testid={`target-new-advert-${props.rowIndex}`}
            onClick={async () => {
              const path = await newAdvertPath(target.id);
              if (path) window.open(path, '_blank', 'noopener');
            }}
          >
            <FilePlus2 size={ICON} aria-hidden />
          </button>
        </>
      )}
      {props.canEdit && linked && (
        <ConfirmButton
          message="Détacher de l'action ?"
          onConfirm={() => void detach(target.id)}
          testId={`target-detach-${props.rowIndex}`}
          className="icon"
          label="Détacher"
        >
          <Unlink size={ICON} aria-hidden />
        </ConfirmButton>
      )}
      {props.canEdit && (
        <>
          <button
            type="button"
            className="icon"
            {...named('Dupliquer')}
            onClick={() => void duplicate({ id: target.id, position: target.position + 1 })}
            data-testid={`target-duplicate-${props.rowIndex}`}
          >
            <Copy size={ICON} aria-hidden />
          </button>
          <ConfirmButton
            message="Supprimer l'action ?"
            onConfirm={() => void remove(target.id)}
            testId={`target-delete-${props.rowIndex}`}
            className="icon danger"
            label="Supprimer"
          >
            <Trash2 size={ICON} aria-hidden />
          </ConfirmButton>
        </>
      )}
    </span>
  );
}
