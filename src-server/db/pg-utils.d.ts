/** pg's own serialisation of a query parameter (arrays as '{…}'), which @types/pg does not declare. */
declare module 'pg/lib/utils.js' {
  export function prepareValue(value: unknown): string | Buffer | null;
}
