/** The groups feature's public face: the new-group dialog, which the audience editor opens too. */
export { NewGroupDialog } from './NewGroupDialog';
