/** Refusals of POST /presence/:record/:id (docs/security.md, "Streams and slow requests"); the editor shows none. */
export const PRESENCE_MESSAGES = {
  recordNotFound: "Cette fiche n'existe pas ou vous ne pouvez pas la consulter.",
  tooFrequent: 'Présence déjà signalée il y a un instant. Réessayez dans quelques secondes.',
} as const;
