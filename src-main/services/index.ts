export * from './api-client';
export * from './files';
export * from './session-vault';
export * from './settings';
