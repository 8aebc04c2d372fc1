import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';

/** One field both people changed: its label and the two values as the user reads them. */
export interface ConflictRow {
  field: string;
  label: string;
  mine: string;
  theirs: string;
}

/** A value as a person reads it in the conflict table: empty, yes/no, a list of names, or the text. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return M.emptyValue;
  if (typeof value === 'boolean') return value ? M.yes : M.no;
  if (Array.isArray(value)) {
    const names = value.map((item) => (item && typeof item === 'object' && 'name' in item ? String(item.name) : displayValue(item)));
    return names.length ? names.join(', ') : M.emptyValue;
  }
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

/**
 * A save refused because someone else changed the record meanwhile (docs/architecture.md, "Versions and
 * conflicts"): who and when, then each field both changed with yours beside theirs and a choice per field, or a
 * reload that takes theirs whole. The user's values stay in the form until they choose.
 */
export function ConflictPanel(props: {
  message: string;
  rows: ConflictRow[];
  onKeepMine: (field: string) => void;
  onTakeTheirs: (field: string) => void;
  onReload: () => void;
}) {
  return (
    <section className="conflict-panel alert warning" role="alert" aria-labelledby="conflict-title" data-testid="conflict-panel">
      <h2 id="conflict-title">{M.conflictTitle}</h2>
      <p data-testid="conflict-message">{props.message}</p>
      {props.rows.length > 0 && (
        <table className="conflict-table">
          <thead>
            <tr>
              <th scope="col">{M.fieldColumn}</th>
              <th scope="col">{M.yourValue}</th>
              <th scope="col">{M.theirValue}</th>
              <th scope="col">
                <span className="visually-hidden">Choix</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => (
              <tr key={row.field} data-testid={`conflict-${row.field}`}>
                <th scope="row">{row.label}</th>
                <td data-testid="conflict-mine">{row.mine}</td>
                <td data-testid="conflict-theirs">{row.theirs}</td>
                <td className="conflict-actions">
                  <button type="button" onClick={() => props.onKeepMine(row.field)}>
                    {M.keepMine}
                  </button>
                  <button type="button" onClick={() => props.onTakeTheirs(row.field)}>
                    {M.takeTheirs}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="conflict-hint">{M.mergedHint}</p>
      <div className="conflict-footer">
        <button type="button" onClick={props.onReload} data-testid="conflict-reload">
          {M.reloadRecord}
        </button>
      </div>
    </section>
  );
}
