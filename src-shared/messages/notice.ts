/**
 * How the spec says a text is shown: a toast of a kind for a time (spec §2 toaster kinds), on the form, or as
 * an alert. Screens show a notice through one helper, so a text and its kind and duration never drift apart.
 */
export type NoticeKind = 'info' | 'warning' | 'error' | 'success' | 'form' | 'alert';

export interface Notice {
  readonly text: string;
  readonly kind: NoticeKind;
  /** Toast duration in ms; the toaster's 3 s default when the spec gives none. */
  readonly durationMs: number;
}

export const DEFAULT_TOAST_MS = 3000;

export function notice(text: string, kind: NoticeKind, durationMs = DEFAULT_TOAST_MS): Notice {
  return { text, kind, durationMs };
}

/** A notice whose text comes from the server (spec: 'the server's errorMsg', 'the response'). */
export function withText(template: Notice, text: string): Notice {
  return { ...template, text };
}
