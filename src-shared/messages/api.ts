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
  idempotencyKeyOnFile:
    'Cette opération renvoie un fichier : elle n’accepte pas de clé d’idempotence (Idempotency-Key). Renvoyez-la sans cet en-tête.',
  idempotencyInProgress: 'Cette demande est déjà en cours de traitement. Réessayez dans un instant.',
} as const;

/** Bodies of GET /ready (docs/operations.md, "Monitor"): why this instance should not get traffic yet, or a warning. */
export const READINESS_MESSAGES = {
  databaseUnreachable: 'La base de données ne répond pas.',
  migrationsBehind: "La base de données n'a pas toutes les migrations de cette version du serveur.",
  migrationsAhead: 'La base de données a des migrations plus récentes que cette version du serveur : mettez ce serveur à jour.',
  audiencesBuilding: "Le moteur d'audiences se construit à partir de la base de données.",
  audiencesNotFollowing: "Le moteur d'audiences ne suit plus les écritures des autres instances.",
  localStorageShared: (others: number) =>
    `Fichiers dans un dossier local alors que ${others} autre(s) instance(s) utilisent cette base : chaque instance ne voit que ses propres fichiers. Configurez STORAGE_S3_BUCKET.`,
  localStorageOnPostgres:
    'Fichiers dans un dossier local : si plusieurs instances utilisent cette base, chacune ne verra que ses propres fichiers. Configurez STORAGE_S3_BUCKET.',
  starting: 'Le serveur démarre. Réessayez dans quelques secondes.',
} as const;
