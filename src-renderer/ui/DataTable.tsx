import { useInfiniteScroll } from '../lib/infinite-scroll';
import { measureElement, useWindowVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useLayoutEffect, useRef, useState, type HTMLAttributes, type ReactNode, type Ref } from 'react';

export interface Column<Row> {
  id: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Class of the column's cells (not of its header). */
  className?: string;
}

function ariaSort(column: string, sortedBy: { column?: string; order?: 'ASC' | 'DESC' } | undefined) {
  if (!sortedBy?.order || sortedBy.column !== column) return undefined;
  return sortedBy.order === 'ASC' ? 'ascending' : 'descending';
}

/** Height a row is assumed to have until one is measured (one line of text with the table's padding). */
const ESTIMATED_ROW_PX = 41;
/**
 * Up to this many loaded rows (a normal page: pages of 25, 99 accounts, a few pages scrolled) every row stays in the
 * DOM, so find-in-page and the browser tests see them all. Past it only the rows in view and OVERSCAN_ROWS around
 * them are rendered: the bench measured frame p95 67 ms with 100 rows kept around the view, 33 ms with 10; 5 (205 px,
 * two frames of a fast scroll) cut Chromium's CPU per scrolled frame by a further 10 % against 10.
 */
const WHOLE_LIST_MAX_ROWS = 200;
const OVERSCAN_ROWS = 5;

/**
 * A table with infinite scroll (lib/infinite-scroll.ts): when its bottom comes into view and more rows exist, it asks for the next page
 * (`onLoadMore`); the caller appends it (skip > 0, spec §4). Its rows are virtualised against the page's scroll
 * (@tanstack/react-virtual): only the rows near the view are rendered, between two spacer rows that keep the
 * table's full height, so 10,000 loaded rows scroll as smoothly as 25. The header stays in view (sticky).
 */
type RowAttributes<Row> = (row: Row) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | number | undefined>;

export function DataTable<Row>(props: {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  /** Extra attributes of a row, e.g. data-testid, to drive it from tests. */
  rowAttributes?: RowAttributes<Row>;
  hasMore?: boolean;
  loading?: boolean;
  onLoadMore?: () => void;
  emptyText?: string;
  testId?: string;
  /** Load the next page when the bottom is this close to coming into view (e.g. 100 px, audiences spec §9). */
  loadMarginPx?: number;
  /** Wait this long once the bottom comes near before loading (e.g. 250 ms, adverts-articles spec §2.4). */
  loadDebounceMs?: number;
  /** The column the rows are sorted by: its header says so (aria-sort belongs on the header cell, WAI-ARIA 1.2). */
  sortedBy?: { column?: string; order?: 'ASC' | 'DESC' };
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  const { rows, rowKey, hasMore, loading, onLoadMore, loadMarginPx = 0, loadDebounceMs = 0 } = props;

  // Where the rows start in the page: the virtualizer measures the window's scroll from the page's top. Read when
  // the rows change, not on every scroll step (it would force a layout per frame); being a few pixels off while
  // a filter bar grows only shifts which of the overscanned rows are kept.
  const [rowsTop, setRowsTop] = useState(0);
  useLayoutEffect(() => {
    const top = body.current ? Math.round(body.current.getBoundingClientRect().top + window.scrollY) : 0;
    setRowsTop(top);
  }, [rows]);
  // The virtualizer recomputes the position of every row (10,000 in the bench) when its key function changes (on
  // each scrolled render, were it inline) and of every row after one that measures other than its estimate (which
  // also moves the scroll when that row is above the view): a stable key function, and an estimate that is right.
  const getItemKey = useCallback((index: number) => rowKey(rows[index]!), [rows, rowKey]);
  const oneLineRowPx = useRef(ESTIMATED_ROW_PX);
  const measureRow = useCallback(
    (row: HTMLTableRowElement, entry: ResizeObserverEntry | undefined, instance: Virtualizer<Window, HTMLTableRowElement>) => {
      const size = measureElement(row, entry, instance);
      // The estimate is the shortest row measured (one line with these styles and fonts): the rows still to come
      // then measure as estimated, unless they wrap.
      if (size > 0 && size < oneLineRowPx.current) oneLineRowPx.current = size;
      return size;
    },
    [],
  );
  const virtualizer = useWindowVirtualizer<HTMLTableRowElement>({
    count: rows.length,
    estimateSize: () => oneLineRowPx.current,
    measureElement: measureRow,
    overscan: rows.length <= WHOLE_LIST_MAX_ROWS ? WHOLE_LIST_MAX_ROWS : OVERSCAN_ROWS,
    scrollMargin: rowsTop,
    getItemKey,
    // React 19 batches the scroll's re-render into the next frame instead of forcing it synchronously.
    useFlushSync: false,
  });
  const shown = virtualizer.getVirtualItems();
  const spaceAbove = shown.length ? shown[0]!.start - rowsTop : 0;
  const spaceBelow = shown.length ? virtualizer.getTotalSize() - (shown[shown.length - 1]!.end - rowsTop) : 0;

  const sentinel = useInfiniteScroll({
    enabled: Boolean(onLoadMore && hasMore),
    loading,
    onLoadMore: () => onLoadMore?.(),
    marginPx: loadMarginPx,
    debounceMs: loadDebounceMs,
    itemCount: rows.length,
  });

  return (
    <>
      <table className="table data-table-virtual" data-testid={props.testId}>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column.id} aria-sort={ariaSort(column.id, props.sortedBy)}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody ref={body}>
          {spaceAbove > 0 && <SpacerRow height={spaceAbove} columns={props.columns.length} />}
          {shown.map((item) => (
            <TableRow
              key={item.key}
              index={item.index}
              row={rows[item.index]!}
              columns={props.columns}
              rowAttributes={props.rowAttributes}
              measure={virtualizer.measureElement}
            />
          ))}
          {spaceBelow > 0 && <SpacerRow height={spaceBelow} columns={props.columns.length} />}
        </tbody>
      </table>
      {!loading && rows.length === 0 && props.emptyText && <p className="table-empty">{props.emptyText}</p>}
      <div ref={sentinel} className="sentinel" aria-live="polite">
        {loading ? 'Chargement…' : null}
      </div>
    </>
  );
}

/** The height of the rows left out above or below the view; hidden from assistive technology. */
function SpacerRow(props: { height: number; columns: number }) {
  return (
    <tr className="table-spacer" aria-hidden="true" style={{ height: props.height }}>
      <td colSpan={props.columns} />
    </tr>
  );
}

/**
 * One row; memoised, so a scroll step renders only the rows that come into view, not every row kept around it.
 * Its height is measured (`measure`), since long names wrap.
 */
const TableRow = memo(function TableRow<Row>(props: {
  index: number;
  row: Row;
  columns: Column<Row>[];
  rowAttributes?: RowAttributes<Row>;
  measure: Ref<HTMLTableRowElement>;
}) {
  const { index, row, columns, rowAttributes, measure } = props;
  return (
    <tr data-index={index} ref={measure} {...rowAttributes?.(row)}>
      {columns.map((column) => (
        <td key={column.id} className={column.className}>
          {column.cell(row)}
        </td>
      ))}
    </tr>
  );
}) as <Row>(props: {
  index: number;
  row: Row;
  columns: Column<Row>[];
  rowAttributes?: RowAttributes<Row>;
  measure: Ref<HTMLTableRowElement>;
}) => ReactNode;
