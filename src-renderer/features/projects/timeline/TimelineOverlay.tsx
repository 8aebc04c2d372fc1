import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useMemo, useRef, useState, type JSX } from 'react';
import type { Project } from '@shared/contract/projects/projects';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { canEditComment, ownLatestComment } from '@shared/rules/project-comments';
import { barPercentages, TIMELINE_COMMENT_DEBOUNCE_MS, timelineBar, timelineMonths } from '@shared/rules/project-timeline';
import { formatDay } from '@shared/rules/dates';
import { statusClass } from '@shared/rules/projects';
import { sessionAtom } from '../../../lib/session';
import {
  loadTimelineAtom,
  saveTimelineCommentAtom,
  timelineLoadingAtom,
  timelineSavingAtom,
  timelineTargetsAtom,
  type TimelineTarget,
} from './atoms';
import './timeline.css';
import { X } from 'lucide-react';
import { useQuery } from '../../../lib/use-query';
import { useFocusWhileOpen } from '../../../ui/focus-return';

/**
 * The timeline overlay of a project (audiences-projects-tools.md §2): months from 3 before the earliest date to
 * 3 after the latest, one bar per action, and each action's comments, the user's own editable in place (saved
 * 500 ms after the last keystroke).
 */
export function TimelineOverlay(props: { project: Project; onClose(): void }): JSX.Element | null {
  const targets = useAtomValue(timelineTargetsAtom);
  const loading = useAtomValue(timelineLoadingAtom);
  const load = useSetAtom(loadTimelineAtom);
  const { onClose } = props;
  const overlay = useRef<HTMLDivElement>(null);
  useFocusWhileOpen(overlay, true);

  useQuery(['projects.timeline', props.project.id], (signal) => load(props.project.id, signal));

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const months = useMemo(() => timelineMonths(targets ?? []), [targets]);

  return (
    <div
      ref={overlay}
      tabIndex={-1}
      className="timeline-overlay"
      role="dialog"
      aria-modal="true"
      aria-label="Timeline"
      data-testid="timeline-overlay"
    >
      <header className="timeline-header">
        <h2>Timeline — {props.project.name}</h2>
        <button type="button" className="link" aria-label="Fermer" data-testid="timeline-close" onClick={onClose}>
          <X size={18} aria-hidden />
        </button>
      </header>
      {loading || targets === null ? (
        <p className="muted">{PROJECT_MESSAGES.loading}</p>
      ) : (
        <div className="timeline-grid" style={{ ['--timeline-months' as string]: Math.max(months.length, 1) }}>
          <div className="timeline-row timeline-months" data-testid="timeline-months">
            <div className="timeline-label">Action</div>
            <div className="timeline-track">
              {months.map((month) => (
                <div key={`${month.year}-${month.month}`} className="timeline-month">
                  {/* The month above its year: narrow columns, so that a project's months fit beside the comments. */}
                  <span>{month.label.slice(0, month.label.lastIndexOf(' '))}</span> <span>{month.year}</span>
                </div>
              ))}
            </div>
            <div className="timeline-comments-head">Commentaires</div>
          </div>
          {targets.map((target) => (
            <TimelineRow key={target.id} target={target} months={months} />
          ))}
          {targets.length === 0 && <p className="muted">Aucune action</p>}
        </div>
      )}
    </div>
  );
}

function TimelineRow(props: { target: TimelineTarget; months: ReturnType<typeof timelineMonths> }) {
  const { target, months } = props;
  const bar = timelineBar(months, target);
  const position = bar ? barPercentages(months, bar) : null;
  const dates = `${formatDay(target.startDate)}${target.endDate ? ` → ${formatDay(target.endDate)}` : ''}`;
  return (
    <div className="timeline-row" data-testid={`timeline-row-${target.id}`}>
      <div className="timeline-label" title={target.type ?? ''}>
        <strong>{target.actionCode ?? `#${target.id}`}</strong>
        <span className="muted">{target.type ?? ''}</span>
      </div>
      <div className="timeline-track">
        {months.map((month) => (
          <div key={`${month.year}-${month.month}`} className="timeline-cell" />
        ))}
        {bar && position && (
          <div
            className={`timeline-bar ${statusClass(target.status)}${bar.startOnly ? ' start-only' : ''}`}
            style={{ left: `${position.left}%`, width: `${position.width}%` }}
            title={`${target.status} · ${dates}`}
            data-testid={`timeline-bar-${target.id}`}
          />
        )}
      </div>
      <TimelineComments target={target} />
    </div>
  );
}

/** The action's comments: others' read-only, the user's own in a field saved 500 ms after the last keystroke. */
function TimelineComments(props: { target: TimelineTarget }) {
  const { target } = props;
  const userId = useAtomValue(sessionAtom)?.userId ?? null;
  const save = useSetAtom(saveTimelineCommentAtom);
  const saving = useAtomValue(timelineSavingAtom).includes(target.id);
  const own = ownLatestComment(target.comments, userId);
  const [draft, setDraft] = useState(own?.content ?? '');
  const typed = useRef(false);

  useEffect(() => {
    if (!typed.current) return;
    const timer = setTimeout(() => void save({ targetId: target.id, draft }), TIMELINE_COMMENT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, target.id, save]);

  return (
    <div className="timeline-comments">
      {target.comments
        .filter((comment) => comment.id !== own?.id)
        .map((comment) => (
          <p
            key={comment.id}
            className="timeline-comment"
            data-own={canEditComment(comment, userId) ? 'true' : 'false'}
            data-testid={`timeline-comment-${comment.id}`}
          >
            <strong>{comment.authorName}</strong> {comment.content}
          </p>
        ))}
      <textarea
        rows={1}
        value={draft}
        placeholder="Votre commentaire"
        aria-label={`Commentaire ${target.actionCode ?? target.id}`}
        data-testid={`timeline-comment-input-${target.id}`}
        data-saving={saving ? 'true' : 'false'}
        onChange={(event) => {
          typed.current = true;
          setDraft(event.target.value);
        }}
      />
    </div>
  );
}
