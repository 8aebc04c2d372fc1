/** Answers of the API to requests it cannot read at all (HTTP level); not in the spec. */
export const API_MESSAGES = {
  badUrl: 'Adresse de requête invalide',
  uriTooLong: 'Adresse de requête trop longue',
  headersTooLarge: 'En-têtes de requête trop volumineux',
  badRequest: 'Requête illisible',
  requestTimeout: 'Requête trop lente, abandonnée',
  // Idempotency-Key of a create (src-server/idempotency.ts)
  invalidIdempotencyKey: 'Clé d’idempotence invalide (8 à 128 lettres, chiffres, - ou _)',
  idempotencyKeyReused: 'Cette clé d’idempotence a déjà servi pour une autre demande',
  idempotencyInProgress: 'Cette demande est déjà en cours de traitement. Réessayez dans un instant.',
} as const;
