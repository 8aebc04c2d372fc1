import { Download, Plus, Trash2 } from 'lucide-react';
import type { BatScreenshot } from '@shared/contract/bat';
import { formatDateTime } from '@shared/rules/dates';
import { SCREENSHOT_MIME } from './BatCanvas';

/**
 * The screenshot library (§2.6): the advert's preview captures, dragged into the page (or added with +) as an
 * image item, downloaded, or deleted.
 */
export function ScreenshotLibrary(props: {
  screenshots: BatScreenshot[];
  canWrite: boolean;
  onAdd(url: string): void;
  onDelete(shot: BatScreenshot): void;
}) {
  if (!props.screenshots.length) return <p className="muted">Aucune capture.</p>;
  return (
    <ul className="bat-library" data-testid="bat-library">
      {props.screenshots.map((shot) => (
        <li key={shot.id} className="bat-screenshot" data-testid="bat-screenshot">
          <img
            src={shot.imgPath}
            alt={`Capture du ${formatDateTime(shot.createdAt / 1000)}`}
            draggable={props.canWrite}
            onDragStart={(event) => {
              event.dataTransfer.setData(SCREENSHOT_MIME, shot.imgPath);
              event.dataTransfer.setData('text/plain', shot.imgPath);
              event.dataTransfer.effectAllowed = 'copy';
            }}
          />
          <span className="bat-screenshot-actions">
            {props.canWrite && (
              <button
                type="button"
                className="icon-button"
                title="Ajouter à la page"
                aria-label="Ajouter à la page"
                data-testid="bat-screenshot-add"
                onClick={() => props.onAdd(shot.imgPath)}
              >
                <Plus size={14} aria-hidden />
              </button>
            )}
            <a
              className="icon-button"
              href={shot.imgPath}
              download={`capture-${shot.id}.png`}
              title="Télécharger"
              aria-label="Télécharger"
              data-testid="bat-screenshot-download"
            >
              <Download size={14} aria-hidden />
            </a>
            {props.canWrite && (
              <button
                type="button"
                className="icon-button danger"
                title="Supprimer la capture"
                aria-label="Supprimer la capture"
                data-testid="bat-screenshot-delete"
                onClick={() => props.onDelete(shot)}
              >
                <Trash2 size={14} aria-hidden />
              </button>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}
