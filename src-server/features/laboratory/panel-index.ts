import type { FilterNode, FilterValue } from '@shared/rules/filter-language';
import { excludes, visitFilter, type FilterCondition } from '@shared/rules/filter-visit';

/** A tag query's parameters once every value is text (see tag-query.ts): a list for `in (...)` only. */
export type TextParams = Record<string, string | string[]>;

/**
 * One field of a panel, dictionary-encoded: member i (in line order) has value `code` in `codes[i]`, or -1 when
 * the SQL expression of the field is NULL (no such criterion, no matched app user, an empty user field).
 */
export class PanelColumn {
  readonly codes: Int32Array;
  private readonly codeOf = new Map<string, number>();

  constructor(size: number) {
    this.codes = new Int32Array(size).fill(-1);
  }

  /** The members at `positions` (0-based, in line order) have `value`. */
  assign(value: string | null, positions: Uint32Array): void {
    if (value === null) return;
    let code = this.codeOf.get(value);
    if (code === undefined) this.codeOf.set(value, (code = this.codeOf.size));
    for (const position of positions) this.codes[position] = code;
  }

  /** The code of a value, -1 when no member has it. */
  code(value: string): number {
    return this.codeOf.get(value) ?? -1;
  }

  get distinctValues(): number {
    return this.codeOf.size;
  }
}

/** A set of members as a bitset (32 members a word). */
type Members = Uint32Array;

function popcount(word: number): number {
  let bits = word - ((word >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (((bits + (bits >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * A tag query evaluated over a panel held in memory, with the meaning filterToSql gives it in SQL (two-valued: a
 * NULL field matches neither `= v` nor `in (...)`, so it matches `!= v`, `not in (...)` and `not (f = v)`).
 * `not` is pushed down to the comparisons as there, so each one is a single pass over a column of codes.
 */
export class PanelEvaluation {
  private readonly words: number;

  constructor(
    private readonly size: number,
    private readonly column: (field: string) => PanelColumn,
    private readonly params: TextParams,
  ) {
    this.words = Math.ceil(size / 32);
  }

  count(node: FilterNode | null): number {
    if (node === null) return this.size;
    const members = this.members(node);
    let total = 0;
    for (const word of members) total += popcount(word);
    return total;
  }

  private everyone(): Members {
    const all = new Uint32Array(this.words).fill(0xffffffff);
    this.trim(all);
    return all;
  }

  /** Clears the bits past the last member. */
  private trim(members: Members): void {
    const extra = this.words * 32 - this.size;
    if (extra > 0) members[this.words - 1] &= 0xffffffff >>> extra;
  }

  private complement(members: Members): Members {
    for (let word = 0; word < members.length; word += 1) members[word] = ~members[word];
    this.trim(members);
    return members;
  }

  private valuesOf(value: FilterValue): string[] {
    if (value.kind === 'literal') return [String(value.value)];
    const given = this.params[value.name];
    return Array.isArray(given) ? given : [given];
  }

  /** Members whose field's code is marked in `wanted` (indexed by code). */
  private matching(column: PanelColumn, wanted: Uint8Array): Members {
    const members = new Uint32Array(this.words);
    const { codes } = column;
    for (let member = 0; member < this.size; member += 1) {
      const code = codes[member];
      if (code >= 0 && wanted[code] === 1) members[member >>> 5] |= 1 << (member & 31);
    }
    return members;
  }

  private condition(node: FilterCondition, negated: boolean): Members {
    const column = this.column(node.field);
    const values = node.kind === 'compare' ? this.valuesOf(node.value).slice(0, 1) : node.values.flatMap((value) => this.valuesOf(value));
    const excluded = excludes(node, negated);
    const wanted = new Uint8Array(column.distinctValues);
    for (const value of values) {
      const code = column.code(value);
      if (code >= 0) wanted[code] = 1;
    }
    const members = this.matching(column, wanted);
    return excluded ? this.complement(members) : members;
  }

  private members(node: FilterNode): Members {
    return visitFilter<Members>(node, {
      condition: (leaf, negated) => this.condition(leaf, negated),
      combine: (operands, conjunction) => {
        let result: Members | null = null;
        for (const members of operands) {
          if (result === null) result = members;
          else if (conjunction) for (let word = 0; word < result.length; word += 1) result[word] &= members[word];
          else for (let word = 0; word < result.length; word += 1) result[word] |= members[word];
        }
        return result ?? this.everyone();
      },
    });
  }
}
