import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { withText } from '@shared/messages';
import { PROJECT_MESSAGES, PROJECT_NOTICES } from '@shared/messages/projects';
import {
  defaultCsmFilter,
  isEstimateId,
  isProjectLineCount,
  MISSING_FIELD_HIGHLIGHT_MS,
  missingImportFields,
  missingProjectFields,
} from '@shared/rules/project-list';
import { ACTORS, MAX_PROJECT_LINES } from '@shared/rules/projects';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { sessionAtom } from '../../lib/session';
import { Dialog } from '../../ui/Dialog';

type Mode = 'create' | 'import';
type FieldKey = 'name' | 'clientName' | 'lines' | 'actor' | 'keyAccount' | 'estimateId';

/** Actors with "Laboratoire" first (spec §9). */
const ACTOR_OPTIONS = [...ACTORS].sort((a, b) => (a === 'Laboratoire' ? -1 : b === 'Laboratoire' ? 1 : a.localeCompare(b, 'fr')));

/** The missing fields, highlighted for MISSING_FIELD_HIGHLIGHT_MS (3 s) from the last highlight; [] clears them. */
function useMissingHighlight(): [FieldKey[], (fields: FieldKey[]) => void] {
  const [missing, setMissing] = useState<FieldKey[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const highlight = (fields: FieldKey[]) => {
    setMissing(fields);
    clearTimeout(timer.current);
    if (fields.length) timer.current = setTimeout(() => setMissing([]), MISSING_FIELD_HIGHLIGHT_MS);
  };
  return [missing, highlight];
}

/** A field's class: a missing one is highlighted. */
function fieldClass(missing: FieldKey[], field: FieldKey) {
  return missing.includes(field) ? 'field invalid' : 'field';
}

/** The two ways to start a project: create it, or import it from a quote. */
function CreateModeChoice({ mode, onChange }: { mode: Mode; onChange: (choice: Mode) => void }) {
  return (
    <div className="create-project-modes" role="radiogroup" aria-label="Création">
      {(['create', 'import'] as const).map((choice) => (
        <label key={choice}>
          <input
            type="radio"
            name="create-mode"
            checked={mode === choice}
            onChange={() => onChange(choice)}
            data-testid={`create-project-mode-${choice}`}
          />{' '}
          {choice === 'create' ? PROJECT_MESSAGES.createProjectChoice : PROJECT_MESSAGES.importEstimateChoice}
        </label>
      ))}
    </div>
  );
}

/** The number of lines: a count typed but not a whole number from 1 to the maximum ('-3', '2.5', '500') says so at the field. */
function LinesField(props: { lines: string; onChange: (lines: string) => void; missing: FieldKey[] }) {
  const invalid = props.lines.trim() !== '' && !isProjectLineCount(props.lines);
  return (
    <label className={fieldClass(props.missing, 'lines')}>
      <span className="field-label">Nombre de lignes</span>
      <input
        type="number"
        min={1}
        value={props.lines}
        onChange={(event) => props.onChange(event.target.value)}
        data-testid="create-project-lines"
        aria-invalid={props.missing.includes('lines') || invalid || undefined}
      />
      {invalid && (
        <span className="field-error" role="alert" data-testid="create-project-lines-error">
          {PROJECT_MESSAGES.projectLinesInvalid(MAX_PROJECT_LINES)}
        </span>
      )}
    </label>
  );
}

/** The actor and CSM selects, shared by both modes. */
function ActorAndCsmFields(props: {
  actor: string;
  onActorChange: (actor: string) => void;
  keyAccount: number | null;
  onKeyAccountChange: (keyAccount: number | null) => void;
  csms: { id: number; name: string }[];
  missing: FieldKey[];
}) {
  const { actor, onActorChange, keyAccount, onKeyAccountChange, csms, missing } = props;
  return (
    <>
      <label className={fieldClass(missing, 'actor')}>
        <span className="field-label">Acteur</span>
        <select
          value={actor}
          onChange={(event) => onActorChange(event.target.value)}
          data-testid="create-project-actor"
          aria-invalid={missing.includes('actor') || undefined}
        >
          <option value="">—</option>
          {ACTOR_OPTIONS.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </label>
      <label className={fieldClass(missing, 'keyAccount')}>
        <span className="field-label">CSM</span>
        <select
          value={keyAccount ?? ''}
          onChange={(event) => onKeyAccountChange(event.target.value ? Number(event.target.value) : null)}
          data-testid="create-project-csm"
          aria-invalid={missing.includes('keyAccount') || undefined}
        >
          <option value="">—</option>
          {csms.map((csm) => (
            <option key={csm.id} value={csm.id}>
              {csm.name}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

/**
 * The create-project modal (spec §2, §5): "Créer un projet" (name, client, number of lines, actor, CSM) or
 * "Importer un devis" (quote DEV-…, name, actor, CSM). Missing fields are highlighted for 3 s and nothing is sent;
 * after a creation the user goes to /project/edit/{id}.
 */
export function CreateProjectDialog(props: { csms: { id: number; name: string }[]; onClose: () => void }) {
  const api = useAtomValue(apiAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  const [mode, setMode] = useState<Mode>('create');
  const [name, setName] = useState('');
  const [clientName, setClientName] = useState('');
  const [lines, setLines] = useState('');
  const [actor, setActor] = useState('');
  const [keyAccount, setKeyAccount] = useState<number | null>(() => defaultCsmFilter(session?.userId, props.csms)?.[0] ?? null);
  const [estimateId, setEstimateId] = useState('');
  const [missing, highlight] = useMissingHighlight();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (busy) return;
    const absent: FieldKey[] =
      mode === 'create'
        ? missingProjectFields({ name, clientName, lines, actor, keyAccount })
        : missingImportFields({ estimateId, name, actor, keyAccount });
    if (absent.length) {
      highlight(absent);
      return;
    }
    setBusy(true);
    const result =
      mode === 'create'
        ? await api('projects.create', {
            body: {
              name: name.trim(),
              clientName: clientName.trim(),
              lines: Number(lines),
              actor: actor as (typeof ACTORS)[number],
              keyAccount: keyAccount!,
            },
          })
        : await api('estimates.createProject', {
            params: { id: estimateId.trim() },
            query: { name: name.trim(), actor: actor as (typeof ACTORS)[number], keyAccount: keyAccount! },
          });
    setBusy(false);
    if (!result.ok) {
      if (mode === 'import' && result.errorMsg === PROJECT_MESSAGES.estimateNotFound) raise(PROJECT_NOTICES.estimateNotFoundOnCreate);
      else raise(withText(PROJECT_NOTICES.serverFailure, result.errorMsg));
      return;
    }
    if (!result.data.id) {
      raise(PROJECT_NOTICES.creationFailed);
      return;
    }
    if (mode === 'import') raise(PROJECT_NOTICES.estimateImported);
    props.onClose();
    navigate(`/project/edit/${result.data.id}`);
  };

  const invalid = (field: FieldKey) => fieldClass(missing, field);
  const canSubmit = !busy && (mode === 'create' || isEstimateId(estimateId));

  return (
    <div className="modal-backdrop" data-testid="create-project-backdrop">
      <Dialog
        title={mode === 'create' ? PROJECT_MESSAGES.createProjectChoice : PROJECT_MESSAGES.importEstimateChoice}
        onCancel={props.onClose}
        testId="create-project-dialog"
        actions={
          <>
            <button type="button" onClick={props.onClose} data-testid="create-project-cancel">
              Annuler
            </button>
            <button type="button" className="primary" disabled={!canSubmit} onClick={() => void submit()} data-testid="create-project-submit">
              Créer
            </button>
          </>
        }
      >
        <form
          className="create-project-form"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <CreateModeChoice mode={mode} onChange={(choice) => (setMode(choice), highlight([]))} />
          {mode === 'import' && (
            <label className={invalid('estimateId')}>
              <span className="field-label">Numéro de devis</span>
              <input
                value={estimateId}
                placeholder="DEV-..."
                onChange={(event) => setEstimateId(event.target.value)}
                data-testid="create-project-estimate"
                aria-invalid={missing.includes('estimateId') || undefined}
              />
            </label>
          )}
          <label className={invalid('name')}>
            <span className="field-label">Nom du projet</span>
            <input
              value={name}
              onChange={(event) => setName(event.target.value)}
              data-testid="create-project-name"
              aria-invalid={missing.includes('name') || undefined}
              autoFocus
            />
          </label>
          {mode === 'create' && (
            <>
              <label className={invalid('clientName')}>
                <span className="field-label">Client</span>
                <input
                  value={clientName}
                  onChange={(event) => setClientName(event.target.value)}
                  data-testid="create-project-client"
                  aria-invalid={missing.includes('clientName') || undefined}
                />
              </label>
              <LinesField lines={lines} onChange={setLines} missing={missing} />
            </>
          )}
          <ActorAndCsmFields
            actor={actor}
            onActorChange={setActor}
            keyAccount={keyAccount}
            onKeyAccountChange={setKeyAccount}
            csms={props.csms}
            missing={missing}
          />
          {/* Enter in a field submits, like the Create button. */}
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </form>
      </Dialog>
    </div>
  );
}
