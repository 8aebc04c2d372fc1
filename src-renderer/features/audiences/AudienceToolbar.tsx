import { useAtomValue, useSetAtom } from 'jotai';
import { Link } from 'react-router-dom';
import { AUDIENCE_MESSAGES } from '@shared/messages';
import { AREAS, AUDIENCE_TYPES, type Area, type AudienceType } from '@shared/rules/audiences';
import { audienceFieldErrorsAtom, draftAtom } from './atoms/draft';
import { setAreaAtom, setCatalogAtom, setNameAtom, setTypeAtom } from './atoms/fields';
import { saveAudienceAtom, savingAtom } from './atoms/save';
import { TYPE_LABELS } from './labels';

/** The audience editor's toolbar: back to the list, the audience's own fields, and 'Sauvegarder'. */
export function AudienceToolbar() {
  const draft = useAtomValue(draftAtom)!;
  const saving = useAtomValue(savingAtom);
  const setArea = useSetAtom(setAreaAtom);
  const setCatalog = useSetAtom(setCatalogAtom);
  const save = useSetAtom(saveAudienceAtom);
  return (
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
  );
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
