/** One notification to one app user, on every device (token) the user has. */
export interface PushMessage {
  campaignId: number;
  userId: number;
  tokens: { platform: string; token: string }[];
  notification: { title: string; body: string; navigation: string; customId: string };
}

export interface Delivery {
  userId: number;
  /** sent: at least one device took it; failed: none did; no-token: the user had no device left. */
  status: 'sent' | 'failed' | 'no-token';
  detail?: string;
  /** Tokens the provider says are invalid or unregistered: removed from their user. */
  invalidTokens: string[];
}

/**
 * A delivery provider (docs/push.md): `outbox` by default, FCM HTTP v1 in production. A provider answers one Delivery
 * per message; a throw means nothing of the batch is known to be delivered, and the whole batch is tried again.
 */
/** The provider asked to be left alone for a while (FCM's Retry-After on 429 and 5xx): the batch waits at least that. */
export class ProviderRetryLater extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'ProviderRetryLater';
  }
}

/** The provider's wait, when the error carries one. */
export const providerRetryAfterMs = (error: unknown): number | undefined => (error instanceof ProviderRetryLater ? error.retryAfterMs : undefined);

export interface PushProvider {
  readonly name: string;
  send(messages: PushMessage[]): Promise<Delivery[]>;
}

/**
 * The outbox: nothing leaves the server; the delivery record (push_messages, written by the job for every provider)
 * is the message, which the tester and the debug page can show.
 */
export const outboxProvider: PushProvider = {
  name: 'outbox',
  send: async (messages) =>
    messages.map((message) => ({ userId: message.userId, status: message.tokens.length ? 'sent' : 'no-token', invalidTokens: [] })),
};
