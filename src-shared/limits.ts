/**
 * Business constants and limits of spec §9 that screens need at run time. Kept free of zod so that a screen
 * importing them does not pull the contract's schemas into its chunk.
 */

/** Page size of the account list. */
export const ACCOUNT_PAGE_SIZE = 99;
