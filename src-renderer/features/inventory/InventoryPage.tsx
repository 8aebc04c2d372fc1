import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { ChevronLeft, ChevronRight, Info } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { INVENTORY_MESSAGES as M } from '@shared/messages/inventory';
import { inventoryAdmins } from '@shared/access-rules';
import { isAllowed } from '@shared/roles';
import {
  formatViews,
  isLowStock,
  moveAnchor,
  parseMonthKey,
  periodLabel,
  quarterLabel,
  remainingViews,
  monthName,
  type ViewType,
} from '@shared/rules/inventory';
import { loadMetaAtom, metaAtom } from '../../lib/meta';
import { modalAtom } from '../../lib/modal';
import { rolesAtom } from '../../lib/session';
import { UploadProgressList } from '../../lib/uploads';
import { useQuery } from '../../lib/use-query';
import {
  categoryKey,
  exportInventoryAtom,
  importInventoryAtom,
  inventoryAnchorAtom,
  inventoryCategoryAtom,
  inventoryLoadedAtom,
  inventoryRowsAtom,
  inventoryTotalAtom,
  inventoryViewTypeAtom,
  loadInventoryAtom,
  loadMoreInventoryAtom,
  type InventoryRow,
} from './atoms';
import { AvailabilityDialog } from './AvailabilityDialog';
import { categoryOptions } from './categories';
import { InventoryRowDialog } from './InventoryRowDialog';
import './inventory.css';

/** A period's column title: the month ('Janvier 26') or the §9 quarter label. */
function periodTitle(date: string, viewType: ViewType): string {
  const month = parseMonthKey(date);
  if (!month) return date;
  return viewType === 'quarter' ? quarterLabel(month) : `${monthName(month)} ${String(month.year % 100).padStart(2, '0')}`;
}

/** A period is low when its remaining views are at or below 30 % of its total (a period with nothing at all is not). */
const lowPeriod = (entry: InventoryRow['inventory'][number]) =>
  (entry.totalViews > 0 || entry.consumedViews > 0) && isLowStock(entry.totalViews, entry.consumedViews);

/** /inventory: remaining views per category and month or quarter (platform.md §2 "Inventory dashboard"). */
export default function InventoryPage() {
  const [viewType, setViewType] = useAtom(inventoryViewTypeAtom);
  const [anchor, setAnchor] = useAtom(inventoryAnchorAtom);
  const [category, setCategory] = useAtom(inventoryCategoryAtom);
  const rows = useAtomValue(inventoryRowsAtom);
  const loaded = useAtomValue(inventoryLoadedAtom);
  const total = useAtomValue(inventoryTotalAtom);
  const load = useSetAtom(loadInventoryAtom);
  const loadMore = useSetAtom(loadMoreInventoryAtom);
  const importCsv = useSetAtom(importInventoryAtom);
  const exportCsv = useSetAtom(exportInventoryAtom);
  const setModal = useSetAtom(modalAtom);
  const isAdmin = isAllowed(inventoryAdmins, useAtomValue(rolesAtom));
  const meta = useAtomValue(metaAtom);
  const loadMeta = useSetAtom(loadMetaAtom);
  const options = useMemo(() => categoryOptions(meta), [meta]);

  useEffect(() => void loadMeta(), [loadMeta]);
  useQuery(['inventory.list', viewType, anchor, category], (signal) => load(signal));

  const periods = rows[0]?.inventory.map((entry) => entry.date) ?? [];
  const openRow = (row: InventoryRow) => setModal(<InventoryRowDialog row={row} year={anchor.year} onClose={() => setModal(null)} />);

  return (
    <section className="inventory-page" aria-label="Pilotage inventaire">
      <div className="toolbar inventory-toolbar">
        <h1 className="screen-title">Pilotage inventaire</h1>
        <div className="inventory-period">
          <button
            type="button"
            className="icon"
            aria-label={M.previous}
            onClick={() => setAnchor(moveAnchor(viewType, anchor, -1))}
            data-testid="inventory-previous"
          >
            <ChevronLeft size={18} aria-hidden />
          </button>
          <span className="inventory-label" data-testid="inventory-label">
            {periodLabel(viewType, anchor)}
          </span>
          <span className="inventory-tooltip" title={M.totalTooltip} aria-label={M.totalTooltip} role="img" data-testid="inventory-tooltip">
            <Info size={15} aria-hidden />
          </span>
          <button
            type="button"
            className="icon"
            aria-label={M.next}
            onClick={() => setAnchor(moveAnchor(viewType, anchor, 1))}
            data-testid="inventory-next"
          >
            <ChevronRight size={18} aria-hidden />
          </button>
        </div>
        <select aria-label="Vue" value={viewType} onChange={(event) => setViewType(event.target.value as ViewType)} data-testid="inventory-view">
          <option value="month">{M.monthView}</option>
          <option value="quarter">{M.quarterView}</option>
        </select>
        <label className="inventory-filter">
          {M.specialty}{' '}
          <select value={category} onChange={(event) => setCategory(event.target.value)} data-testid="inventory-specialty">
            <option value="">{M.allSpecialties}</option>
            {options.map((option) => (
              <option key={categoryKey(option.label, option.id)} value={categoryKey(option.label, option.id)}>
                {option.name}
              </option>
            ))}
          </select>
        </label>
        {isAdmin && (
          <div className="inventory-actions">
            <button
              type="button"
              onClick={() => setModal(<AvailabilityDialog options={options} onClose={() => setModal(null)} />)}
              data-testid="inventory-availability"
            >
              {M.availabilityButton}
            </button>
            <button type="button" onClick={() => void exportCsv()} data-testid="inventory-export">
              {M.exportCsv}
            </button>
            <button type="button" className="primary" onClick={() => void importCsv()} data-testid="inventory-import">
              {M.importCsv}
            </button>
          </div>
        )}
      </div>
      <UploadProgressList />
      {loaded && rows.length === 0 ? (
        <div className="inventory-empty" data-testid="inventory-empty">
          <p>{M.emptyTitle}</p>
          <p>{M.emptyHint}</p>
        </div>
      ) : (
        <table className="table inventory-table" data-testid="inventory-table">
          <thead>
            <tr>
              <th scope="col">{M.categoryColumn}</th>
              {periods.map((date) => (
                <th scope="col" key={date} className="inventory-number">
                  {periodTitle(date, viewType)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <InventoryTableRow key={`${row.label}:${row.id}`} row={row} onOpen={() => openRow(row)} />
            ))}
          </tbody>
        </table>
      )}
      {rows.length > 0 && rows.length < total && (
        <button type="button" className="inventory-more" onClick={() => void loadMore()} data-testid="inventory-more">
          {M.showMore(rows.length, total)}
        </button>
      )}
    </section>
  );
}

function InventoryTableRow({ row, onOpen }: { row: InventoryRow; onOpen: () => void }) {
  // §2: the row is flagged 'alert' when its remaining views are at or below 30 % of the total in a period it shows.
  const alert = row.inventory.some(lowPeriod);
  return (
    <tr
      className={`inventory-row${alert ? ' alert' : ''}`}
      onClick={onOpen}
      tabIndex={0}
      onKeyDown={(event) => (event.key === 'Enter' ? onOpen() : undefined)}
      data-testid={`inventory-row-${row.label}-${row.id}`}
      data-alert={alert ? 'true' : 'false'}
    >
      <th scope="row">
        {row.populationCategory}
        {alert && (
          <span className="inventory-alert" data-testid="inventory-alert">
            {M.alert}
          </span>
        )}
        {row.unplannedViews > 0 && (
          <small className="muted inventory-unplanned">
            {' '}
            ({formatViews(row.unplannedViews)} {M.unplanned})
          </small>
        )}
      </th>
      {row.inventory.map((entry) => {
        const left = remainingViews(entry);
        const low = lowPeriod(entry);
        return (
          <td
            key={entry.date}
            className={`inventory-number${left < 0 ? ' sold-out' : low ? ' low' : ''}`}
            title={`${formatViews(entry.consumedViews)} / ${formatViews(entry.totalViews)}`}
          >
            {formatViews(left)}
          </td>
        );
      })}
    </tr>
  );
}
