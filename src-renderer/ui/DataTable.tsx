import { useEffect, useRef, type HTMLAttributes, type ReactNode } from 'react';

export interface Column<Row> {
  id: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Class of the column's cells (not of its header). */
  className?: string;
}

/**
 * A table with infinite scroll: when its bottom comes into view and more rows exist, it asks for the next page
 * (`onLoadMore`); the caller appends it (skip > 0, spec §4).
 */
export function DataTable<Row>(props: {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  /** Extra attributes of a row, e.g. data-testid, to drive it from tests. */
  rowAttributes?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | number | undefined>;
  hasMore?: boolean;
  loading?: boolean;
  onLoadMore?: () => void;
  emptyText?: string;
  testId?: string;
  /** Load the next page when the bottom is this close to coming into view (e.g. 100 px, audiences spec §9). */
  loadMarginPx?: number;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasMore, loading, onLoadMore, loadMarginPx = 0 } = props;

  useEffect(() => {
    const node = sentinel.current;
    if (!node || !onLoadMore || !hasMore || loading) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onLoadMore();
      },
      { rootMargin: `0px 0px ${loadMarginPx}px 0px` },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasMore, loading, onLoadMore, loadMarginPx]);

  return (
    <>
      <table className="table" data-testid={props.testId}>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column.id}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)} {...props.rowAttributes?.(row)}>
              {props.columns.map((column) => (
                <td key={column.id} className={column.className}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {!loading && props.rows.length === 0 && props.emptyText && <p className="table-empty">{props.emptyText}</p>}
      <div ref={sentinel} className="sentinel" aria-live="polite">
        {loading ? 'Chargement…' : null}
      </div>
    </>
  );
}
