/**
 * How a team server says it is this product's API, and which API it speaks: GET /health answers
 * `{ ok, database, product, apiVersion }`. The desktop app checks both before it connects to an address
 * (src-main/services/server-probe.ts). `API_VERSION` moves only when an older app could no longer work with the
 * server; the app accepts the versions between SUPPORTED_API_VERSIONS' bounds.
 */
export const API_PRODUCT = 'backoffice-api';
export const API_VERSION = 1;
export const SUPPORTED_API_VERSIONS = { min: 1, max: 1 } as const;
