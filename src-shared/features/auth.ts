import { access } from '../roles';
import { screen, defineFeature } from './define';

export const authFeature = defineFeature({
  id: 'auth',
  screens: [
    screen({ id: 'login', path: '/login', access: access.public }),
    screen({ id: 'passwordConfirm', path: '/password/confirm', access: access.public }),
  ],
});
