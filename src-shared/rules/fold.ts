/**
 * Text folding: how names, headers, keywords and search terms are compared without regard to accents and case
 * ('Chloé', 'CHLOE' and 'chloe' are one name; 'Cœur' is 'coeur'). One module, so the comparisons of every layer
 * agree with each other and with the database's search keys.
 */

/**
 * The accented letters the database's fold (src-server/db/schema/accounts.ts, foldForSearch) translates, and the
 * letter each becomes: translate() is plain SQL, which PGlite (no unaccent extension) and PostgreSQL run alike. The
 * search keys stored in generated columns were computed with exactly these strings: changing them needs a migration
 * that recomputes those columns.
 */
export const SQL_FOLD_ACCENTED = 'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿŸ';
export const SQL_FOLD_UNACCENTED = 'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOOooooooUUUUuuuuYyyY';

/** Ligatures spelled out as their two letters (œ is common in French: cœur, sœur, œil). */
const LIGATURES: Record<string, string> = { œ: 'oe', Œ: 'OE', æ: 'ae', Æ: 'AE' };
/** The SQL table's letters and the ligatures; Ø and ø have no decomposition for NFD to split. */
const REPLACED: ReadonlyMap<string, string> = new Map([
  ...Array.from(SQL_FOLD_ACCENTED, (letter, i): [string, string] => [letter, SQL_FOLD_UNACCENTED[i]]),
  ...Object.entries(LIGATURES),
]);
const REPLACEABLE = new RegExp(`[${[...REPLACED.keys()].join('')}]`, 'g');
/** Combining diacritical marks, left alone after NFD splits a letter from its accents. */
const COMBINING_MARKS = /[\u0300-\u036f]/g;

/** Accents off and ligatures spelled out, case kept ('Œuvre Éditée' → 'OEuvre Editee'). */
export function stripAccents(text: string): string {
  return text
    .replace(REPLACEABLE, (letter) => REPLACED.get(letter)!)
    .normalize('NFD')
    .replace(COMBINING_MARKS, '');
}

/**
 * Text folded for search and comparison: accents off, ligatures spelled out, lower case. On French text it gives
 * what the database's fold gives (tests/server/fold.test.ts compares both); it also folds accented letters beyond
 * the database's table ('ā', a decomposed 'é') and æ, which the stored search keys keep as they are, so a query
 * matching a search key folds its term in SQL, not here.
 */
export function foldForSearch(text: string): string {
  return stripAccents(text).toLowerCase();
}
