/** Answers of the API to requests it cannot read at all (HTTP level); not in the spec. */
export const API_MESSAGES = {
  badUrl: 'Adresse de requête invalide',
  uriTooLong: 'Adresse de requête trop longue',
  headersTooLarge: 'En-têtes de requête trop volumineux',
  badRequest: 'Requête illisible',
  requestTimeout: 'Requête trop lente, abandonnée',
} as const;
