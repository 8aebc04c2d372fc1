import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { formatDateTime } from '@shared/rules/dates';
import type { ApiOutput } from '../../bridge/api';
import { apiAtom } from '../../lib/bridge';
import { dataOf } from '../../lib/query';
import { useQuery } from '../../lib/use-query';

type Report = ApiOutput<'autopublish.report'>;
type ReportItem = Report['shouldBePublished'][number];

/** The autopublish report (platform.md §3, §7): items whose published state disagrees with their dates. */
export const autopublishReportAtom = atom<Report | null>(null);
autopublishReportAtom.debugLabel = 'shell.autopublishReport';

/** Reads the report into autopublishReportAtom, unless a newer read replaced this one (the query aborted it). */
const loadAutopublishReportAtom = atom(null, async (get, set, signal: AbortSignal) => {
  const report = await dataOf(get(apiAtom)('autopublish.report'));
  if (!signal.aborted) set(autopublishReportAtom, report);
});
loadAutopublishReportAtom.debugLabel = 'shell.loadAutopublishReport';

/** How often the bell asks again: the autopublish job runs every minute. */
const REFRESH_MS = 60_000;

function BellIcon() {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
      <path d="M13.73 21a2 2 0 0 1-3.46 0" />
    </svg>
  );
}

function ItemLink({ item }: { item: ReportItem }) {
  const path = item.kind === 'article' ? `/articles/edit/${item.id}` : `/adverts/edit/${item.id}`;
  const dates = [
    item.autoStartAt ? `Prog: ${formatDateTime(item.autoStartAt)}` : null,
    item.autoStopAt ? `Fin: ${formatDateTime(item.autoStopAt)}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <li>
      <Link to={path}>{item.name || `#${item.id}`}</Link> <span className="muted">{dates}</span>
    </li>
  );
}

/**
 * The top bar's alert bell: the count of the autopublish report and, on click, its two lists. Every signed-in
 * user sees the advert list (it is the home screen, platform.md §2), so every one sees the bell.
 */
export function AlertBell() {
  const report = useAtomValue(autopublishReportAtom);
  const load = useSetAtom(loadAutopublishReportAtom);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  // Read on arrival, then again a minute after each answer. The bell is a hint: a failure leaves the last report
  // (or none) without a toast on every page.
  const { refresh } = useQuery('autopublish.report', load, { refreshMs: REFRESH_MS });

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const count = (report?.shouldBePublished.length ?? 0) + (report?.shouldBeUnpublished.length ?? 0);
  return (
    <div className="alert-bell" ref={root}>
      <button
        type="button"
        className="icon"
        aria-label={`Alertes (${count})`}
        title="Alertes"
        aria-expanded={open}
        onClick={() => {
          if (!open) refresh();
          setOpen(!open);
        }}
        data-testid="alert-bell"
      >
        <BellIcon />
        {count > 0 && (
          <span className="alert-bell-count" data-testid="alert-bell-count">
            {count}
          </span>
        )}
      </button>
      {open && (
        <div className="alert-bell-panel" role="dialog" aria-label={M.alertsTitle} data-testid="alert-bell-panel">
          <strong>{M.alertsTitle}</strong>
          {count === 0 && <p className="muted">{M.alertsNone}</p>}
          {report && report.shouldBePublished.length > 0 && (
            <>
              <h3>{M.shouldBePublished}</h3>
              <ul data-testid="alert-should-publish">
                {report.shouldBePublished.map((item) => (
                  <ItemLink key={`${item.kind}-${item.id}`} item={item} />
                ))}
              </ul>
            </>
          )}
          {report && report.shouldBeUnpublished.length > 0 && (
            <>
              <h3>{M.shouldBeUnpublished}</h3>
              <ul data-testid="alert-should-unpublish">
                {report.shouldBeUnpublished.map((item) => (
                  <ItemLink key={`${item.kind}-${item.id}`} item={item} />
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
