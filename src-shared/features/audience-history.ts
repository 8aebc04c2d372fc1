import { AUDIENCE_HISTORY_MESSAGES, AUDIENCE_HISTORY_NOTICES } from '../messages/audience-history';
import { defineFeature } from './define';

export const audienceHistoryFeature = defineFeature({
  id: 'audience-history',
  messages: [AUDIENCE_HISTORY_MESSAGES, AUDIENCE_HISTORY_NOTICES],
});
