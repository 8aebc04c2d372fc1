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
/**
 * Loading the invoicing tool's quote export: it replaces the quotes every account manager imports from, an
 * administrator's job (docs/projects.md, Quotes), ADMIN only.
 */
export const estimateImporters = access.anyOf('ADMIN');

/** The content editors' audience search box (adverts-articles §2.2, §6: CSM, CSM_LEAD and ADMIN). */
export const audienceSearchers = access.anyOf('CSM', 'CSM_LEAD');
/** The live size of an audience or of one label group, in the audience editor (ADMIN). */
export const audienceSizers = access.anyOf('ADMIN');
/** The deleted audiences and their restore (docs/audience-history.md: ADMIN). */
export const audienceRestorers = access.anyOf('ADMIN');

/**
 * Content fields shown to ADMIN only, so only ADMIN writes them (adverts-articles §2.2, §6): the Tracking section (the
 * pixel URL "validated by the technical team") and the quiz's starting voters count.
 */
export const contentAdminFieldWriters = access.anyOf('ADMIN');

/** The inventory dashboard (platform §2 "Inventory dashboard", §6: CSM_LEAD's menu entry, and ADMIN). */
export const inventoryReaders = access.anyOf('CSM_LEAD');
/** The inventory's export, import and availability search (platform §6: ADMIN only). */
export const inventoryAdmins = access.anyOf('ADMIN');

/**
 * Laboratory projects ("Alphonse", audiences-projects-tools §2, §3, §7). Spec §6 gives SALES the menu entry and shows
 * no other rule, so: SALES (and ADMIN) read and write every laboratory project; an account listed on a project's
 * Access tab, whatever its roles, reads that project (list and page) but changes nothing.
 */
export const labReaders = access.authenticated;
export const labWriters = access.anyOf('SALES');
