import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { statusIcon, type ScheduleState } from '@shared/rules/advert-screens/status';
import './content.css';

/** Clock drawn, not an emoji (desktops without an emoji font show a box). */
function ClockGlyph() {
  return (
    <svg width="12" height="12" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" aria-hidden="true">
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </svg>
  );
}

/** The list's five-colour status icon (§2.1). */
export function StatusIconView(props: { item: ScheduleState; nowSeconds?: number; testId?: string }) {
  // The icon shows the state at the time it is drawn (a list row redraws when its data does): reading the clock here
  // is the point, and tests pass `nowSeconds`.
  // eslint-disable-next-line react-hooks/purity
  const icon = statusIcon(props.item, props.nowSeconds ?? Math.floor(Date.now() / 1000));
  return (
    <span
      className={`status-icon status-${icon.color}`}
      title={icon.title}
      aria-label={icon.title}
      role="img"
      data-testid={props.testId}
      data-status={icon.kind}
      data-color={icon.color}
      data-clock={icon.clock}
    >
      {icon.clock ? <ClockGlyph /> : null}
    </span>
  );
}

export type SortOrder = 'ASC' | 'DESC';

/** A column header that sorts the list by its field; a second click reverses the order. */
export function SortHeader(props: {
  field: string;
  label: ReactNode;
  orderBy?: string;
  order?: SortOrder;
  onSort: (field: string, order: SortOrder) => void;
  testId?: string;
}) {
  const active = props.orderBy === props.field;
  const next: SortOrder = active && props.order === 'ASC' ? 'DESC' : 'ASC';
  return (
    <button
      type="button"
      className={`sort-header${active ? ' active' : ''}`}
      onClick={() => props.onSort(props.field, next)}
      data-testid={props.testId ?? `sort-${props.field}`}
    >
      {props.label}
      <span aria-hidden="true" className="sort-arrow">
        {active ? (props.order === 'ASC' ? '▲' : '▼') : '↕'}
      </span>
    </button>
  );
}

/**
 * The ad-blocker alert (§2.2, platform.md §8): a bait element with the class names blockers hide; when it is
 * hidden or removed, the alert shows above the list.
 */
export function AdBlockerAlert() {
  const bait = useRef<HTMLDivElement>(null);
  const [blocked, setBlocked] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => {
      const node = bait.current;
      if (!node || !node.isConnected) return setBlocked(true);
      const style = getComputedStyle(node);
      setBlocked(node.offsetHeight === 0 || style.display === 'none' || style.visibility === 'hidden');
    }, 200);
    return () => clearTimeout(timer);
  }, []);
  return (
    <>
      <div
        ref={bait}
        className="adsbox ad-banner pub_300x250 textads"
        aria-hidden="true"
        data-testid="adblock-bait"
        style={{ position: 'absolute', left: -9999, top: -9999, width: 10, height: 10 }}
      />
      {blocked && (
        <div className="alert warning" role="alert" data-testid="adblock-alert">
          {M.adBlocker}
        </div>
      )}
    </>
  );
}

/** A modal-free loader line (the editor's 'loading' state). */
export function Loading() {
  return <div className="splash">Chargement…</div>;
}
