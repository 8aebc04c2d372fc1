import { PRESENCE_MESSAGES } from '../messages/presence';
import { defineFeature } from './define';

/** Who else has a record open (POST /presence, the job-events stream): an operation, no screen of its own. */
export const presenceFeature = defineFeature({ id: 'presence', messages: [PRESENCE_MESSAGES] });
