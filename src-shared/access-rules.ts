import { access } from './roles';

/**
 * Who may do what, named once: the contract's operations (src-shared/contract) and the screens' guards
 * (src-shared/features) read the same rule, so a page never opens for a role its first call will refuse. Free of
 * zod, so the renderer may import it.
 */

/** Every signed-in account reads adverts and articles (SALES read-only, adverts-articles §2.1). */
export const contentReaders = access.authenticated;
/** adverts-articles §6: SALES without ADMIN is blocked from every advert write (create, duplicate, update, property, delete, attach, story screens). */
export const contentWriters = access.notRole('SALES');

/** The audience list and what it reads (audiences-projects-tools §6: the Audiences menu's roles). */
export const audienceReaders = access.anyOf('CSM', 'CSM_LEAD', 'SALES', 'CONTENT_CREATOR');
/** The audience and group editors and every audience write (audiences-projects-tools §6: CSM_LEAD or ADMIN). */
export const audienceWriters = access.anyOf('CSM_LEAD');
/**
 * What an app user is served and which audiences it belongs to: the answer names the user's audiences, as the debug
 * page (/debug/audiences) does, so the same rule (CSM_LEAD, and ADMIN by the any-of bypass); the app platform calls
 * with its service token.
 */
export const appUserReaders = access.anyOf('CSM_LEAD');

/** The projects and targets lists (audiences-projects-tools §6: the Projects menu's roles). */
export const projectReaders = access.anyOf('CSM', 'CSM_LEAD', 'SALES');
/** Project, target and quote-import writes: SALES without ADMIN blocked (audiences-projects-tools §6). */
export const projectWriters = access.anyOf('CSM', 'CSM_LEAD');
