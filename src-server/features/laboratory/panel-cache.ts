import type { ServerContext } from '../../context';
import { panelFieldValues, type LabProjectRow } from './queries';
import { PanelColumn, PanelEvaluation } from './panel-index';
import { countPanel, type CompiledTagQuery } from './tag-query';

/** Members kept in memory across all cached panels (a column costs 4 bytes a member plus its distinct values). */
const MAX_CACHED_MEMBERS = 2_000_000;

/** The positions aggregated by the database (4-byte big-endian integers) as numbers. */
function positionsOf(bytes: Uint8Array): Uint32Array {
  const positions = new Uint32Array(bytes.byteLength >> 2);
  new Uint8Array(positions.buffer).set(bytes.subarray(0, positions.length * 4));
  Buffer.from(positions.buffer).swap32();
  return positions;
}

/** The loaded panel did not have the size its project row says (rows changing under it): counted in SQL instead. */
class PanelMismatch extends Error {}

interface CachedPanel {
  /** What the project row said when it was loaded: a panel change (rows, matching) moves it. */
  key: string;
  size: number;
  panelColumns: Map<string, Promise<PanelColumn>>;
  /** App-user fields, valid while the population version they were read at is current. */
  userColumns: { version: number; columns: Map<string, Promise<PanelColumn>> };
}

const panelKey = (project: LabProjectRow) => `${project.updatedAt.getTime()}/${project.usersCount}/${project.matchedCount}`;

/**
 * Tag counts answered from panels held in memory by this server, column by column as queries name fields (a
 * dictionary-encoded column per field: a count is one pass over each named column, well under a millisecond for
 * 100,000 members, where the database scanned the panel at every keystroke of the tag modal). A panel is reloaded
 * when its project row says it changed; app-user fields when the audience engine has applied a change of app users
 * since they were read (so they are as current as audience sizes, other instances' writes included once followed).
 * A pending panel, or an app-user field without an engine, is counted by the database.
 */
export class PanelCounts {
  private readonly panels = new Map<number, CachedPanel>();

  constructor(
    private readonly context: ServerContext,
    /** The audience engine's version of app users' attributes (its populationVersion). */
    private readonly populationVersion?: () => number,
  ) {}

  async count(project: LabProjectRow, compiled: CompiledTagQuery): Promise<number> {
    const version = this.populationVersion?.();
    if (project.pending || (compiled.usesAppUser && version === undefined)) return countPanel(this.context.db, project.id, compiled);
    const panel = this.panel(project);
    try {
      const columns = new Map<string, PanelColumn>();
      for (const { field, column, ofAppUser } of compiled.fields) {
        columns.set(field, await this.column(project.id, panel, field, { column, ofAppUser, version: version ?? 0 }));
      }
      return new PanelEvaluation(panel.size, (field) => columns.get(field)!, compiled.params).count(compiled.node);
    } catch (error) {
      if (!(error instanceof PanelMismatch)) throw error;
      this.panels.delete(project.id);
      return countPanel(this.context.db, project.id, compiled);
    }
  }

  /** The project is gone: its panel leaves memory. */
  forget(projectId: number): void {
    this.panels.delete(projectId);
  }

  private panel(project: LabProjectRow): CachedPanel {
    const key = panelKey(project);
    let panel = this.panels.get(project.id);
    if (panel?.key !== key) {
      panel = { key, size: project.usersCount, panelColumns: new Map(), userColumns: { version: -1, columns: new Map() } };
    }
    // Most recently used last: the first ones go when the cache is full.
    this.panels.delete(project.id);
    this.panels.set(project.id, panel);
    let members = 0;
    for (const cached of this.panels.values()) members += cached.size;
    for (const [id, cached] of this.panels) {
      if (members <= MAX_CACHED_MEMBERS || id === project.id) break;
      this.panels.delete(id);
      members -= cached.size;
    }
    return panel;
  }

  private column(
    projectId: number,
    panel: CachedPanel,
    field: string,
    how: { column: CompiledTagQuery['fields'][number]['column']; ofAppUser: boolean; version: number },
  ): Promise<PanelColumn> {
    if (how.ofAppUser && panel.userColumns.version !== how.version) panel.userColumns = { version: how.version, columns: new Map() };
    const columns = how.ofAppUser ? panel.userColumns.columns : panel.panelColumns;
    let loading = columns.get(field);
    if (!loading) {
      loading = this.load(projectId, panel.size, how.column, how.ofAppUser);
      columns.set(field, loading);
      // A failed load is not kept: the next count tries again.
      loading.catch(() => columns.get(field) === loading && columns.delete(field));
    }
    return loading;
  }

  private async load(
    projectId: number,
    size: number,
    column: CompiledTagQuery['fields'][number]['column'],
    ofAppUser: boolean,
  ): Promise<PanelColumn> {
    const values = await panelFieldValues(this.context.db, projectId, column, ofAppUser);
    const loaded = new PanelColumn(size);
    let members = 0;
    for (const { value, positions } of values) {
      const at = positionsOf(positions);
      members += at.length;
      if (members > size) throw new PanelMismatch();
      loaded.assign(value, at);
    }
    if (members !== size) throw new PanelMismatch();
    return loaded;
  }
}
