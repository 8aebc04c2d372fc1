/** The inventory feature's public face for other features: the project editor's check of one target. */
export { TargetInventoryCheck } from './TargetInventoryCheck';
