import { LAB_MESSAGES, LAB_NOTICES } from '../messages/laboratory';
import { labReaders } from '../access-rules';
import { access } from '../roles';
import { PANEL_FORMATS } from '../rules/laboratory';
import { screen, defineFeature } from './define';

/**
 * Laboratory projects ("Alphonse", spec §2): the list and a project's page. The menu entry is SALES's (spec §6);
 * the screens open for any signed-in account, whose list holds only the projects granted to it (contract).
 */
export const laboratoryFeature = defineFeature({
  id: 'laboratory',
  screens: [
    screen({
      id: 'alphonse',
      path: '/alphonse',
      access: labReaders,
      nav: { position: 70, label: 'Alphonse', access: access.anyOf('SALES') },
    }),
    screen({ id: 'alphonse.project', path: '/alphonse/project/:id', access: labReaders }),
  ],
  messages: [LAB_MESSAGES, LAB_NOTICES],
  uploads: { 'laboratory.create': PANEL_FORMATS },
});
