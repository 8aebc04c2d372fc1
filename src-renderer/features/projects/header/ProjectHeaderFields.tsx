import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type KeyboardEvent } from 'react';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { PROJECT_HEADER_MAX } from '@shared/rules/projects';
import { LocalDraftOffer } from '../../../ui/DraftOffer';
import { editedProjectAtom } from '../edit-atoms';
import {
  headerPristineAtom,
  headerValuesAtom,
  restoreHeaderAtom,
  resumeHeaderDraftAtom,
  saveProjectHeaderAtom,
  typeHeaderAtom,
  type HeaderField,
  type ProjectHeaderValues,
} from './atoms';

/**
 * A header field edited in place (spec §2): Enter saves, Escape restores the saved value. Leaving the field keeps
 * what was typed (unsaved, kept as a local draft) rather than throwing it away.
 */
export function InlineField(props: { label: string; field: HeaderField; readOnly: boolean }) {
  const values = useAtomValue(headerValuesAtom);
  const saved = useAtomValue(editedProjectAtom)?.[props.field] ?? '';
  /** An emptied name is said at the field, never replaced by the old one without a word. */
  const [error, setError] = useState<string | null>(null);
  const type = useSetAtom(typeHeaderAtom);
  const restore = useSetAtom(restoreHeaderAtom);
  const save = useSetAtom(saveProjectHeaderAtom);
  const value = values?.[props.field] ?? '';
  const onKeyDown = async (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      restore(props.field);
      setError(null);
    }
    if (event.key !== 'Enter') return;
    const input = event.currentTarget;
    const text = value.trim();
    if (!text) return setError(PROJECT_MESSAGES.headerRequired(props.label));
    if (text.length > PROJECT_HEADER_MAX) return setError(PROJECT_MESSAGES.headerTooLong(props.label, PROJECT_HEADER_MAX));
    if (text === saved) return restore(props.field);
    if (await save({ field: props.field, value: text })) input.blur();
  };
  return (
    <label className={`project-edit-inline project-edit-${props.field}`}>
      <span className="visually-hidden">{props.label}</span>
      <input
        value={value}
        // As wide as its text (a long name is not cut), within the header (project-edit.css); the whole text on hover.
        size={Math.max(value.length + 1, 8)}
        title={value}
        readOnly={props.readOnly}
        aria-label={props.label}
        aria-invalid={error ? true : undefined}
        onChange={(event) => (type({ field: props.field, value: event.target.value }), setError(null))}
        onKeyDown={(event) => void onKeyDown(event)}
        data-testid={`project-${props.field}`}
      />
      {error && (
        <span className="field-error" role="alert" data-testid={`project-${props.field}-error`}>
          {error}
        </span>
      )}
    </label>
  );
}

/**
 * The project header's local draft (docs/architecture.md, "Versions and conflicts"): the name and client typed and
 * not saved, offered back when the project reopens; a stale one meets the usual conflict on Enter.
 */
export function ProjectHeaderDraft() {
  const project = useAtomValue(editedProjectAtom);
  const values = useAtomValue(headerValuesAtom);
  const pristine = useAtomValue(headerPristineAtom);
  const resume = useSetAtom(resumeHeaderDraftAtom);
  return (
    <LocalDraftOffer<ProjectHeaderValues>
      recordKey={project ? `project:${project.id}` : null}
      values={values}
      pristine={pristine}
      version={project?.version ?? null}
      onResume={(typed, base) => resume({ values: typed, base })}
    />
  );
}
