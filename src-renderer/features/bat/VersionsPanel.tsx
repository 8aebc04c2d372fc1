import type { BatVersion } from '@shared/contract/bat';
import { BAT_VERSION_STATE_LABELS, nextVersionStates, type BatVersionState } from '@shared/rules/bat';
import { formatDateTime } from '@shared/rules/dates';

const ACTION_LABELS: Record<BatVersionState, string> = {
  draft: 'Brouillon',
  sent: 'Marquer envoyé au client',
  validated: 'Validé par le client',
  changes_requested: 'Modifications demandées',
};

/** The frozen versions (docs/content.md, BAT proofs, beyond the spec): number, PDF, state with who and when, the next states. */
export function VersionsPanel(props: {
  versions: BatVersion[];
  canWrite: boolean;
  busy: boolean;
  onFreeze(): void;
  onMove(version: BatVersion, state: BatVersionState): void;
}) {
  return (
    <section className="bat-versions" data-testid="bat-versions">
      <header>
        <h2>Versions</h2>
        {props.canWrite && (
          <button type="button" className="secondary" disabled={props.busy} data-testid="bat-freeze" onClick={props.onFreeze}>
            Figer une version
          </button>
        )}
      </header>
      {!props.versions.length && <p className="muted">Aucune version figée.</p>}
      <ul>
        {props.versions.map((version) => (
          <li key={version.id} data-testid="bat-version" data-state={version.state}>
            <a href={version.pdfUrl} target="_blank" rel="noreferrer">
              Version {version.number}
            </a>
            <span className={`bat-version-state state-${version.state}`} data-testid="bat-version-state">
              {BAT_VERSION_STATE_LABELS[version.state]}
            </span>
            <span className="muted">
              {version.stateBy}, {formatDateTime(version.stateAt / 1000)}
            </span>
            {props.canWrite &&
              nextVersionStates(version.state).map((state) => (
                <button
                  key={state}
                  type="button"
                  className="secondary small"
                  data-testid={`bat-version-${state}`}
                  onClick={() => props.onMove(version, state)}
                >
                  {ACTION_LABELS[state]}
                </button>
              ))}
          </li>
        ))}
      </ul>
    </section>
  );
}
