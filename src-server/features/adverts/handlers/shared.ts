/** A body's item fields as the content service takes them (the contract has checked their shape). */
export const asInput = (value: object | undefined) => (value ?? {}) as Record<string, unknown>;
