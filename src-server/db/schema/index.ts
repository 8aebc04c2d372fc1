/**
 * The drizzle schema, one file per feature (tables shared by several features in their own file). drizzle-kit
 * reads this folder; a new feature adds its file here and one export line below.
 */
export * from './accounts';
export * from './auth';
export * from './server';
export * from './audiences';
export * from './audience-history';
export * from './storage';
export * from './adverts';
export * from './projects';
export * from './bat';
export * from './laboratory';
export * from './imports';
export * from './inventory';
export * from './push';
