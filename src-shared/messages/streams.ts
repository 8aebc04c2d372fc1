/**
 * Refusals of the API's long-lived connections and slow requests (docs/security.md, "Streams and slow requests");
 * not in the spec. The app's follower retries a refused stream with backoff, so the user rarely reads these.
 */
export const STREAM_MESSAGES = {
  tooManyStreamsForAccount: (max: number) =>
    `Trop de connexions au suivi des tâches pour ce compte (${max} au plus) : fermez des fenêtres ou réessayez dans un instant.`,
  tooManyStreams: 'Le serveur suit déjà trop de connexions. Réessayez dans quelques secondes.',
} as const;
