import LoginPage from './LoginPage';
import PasswordConfirmPage from './PasswordConfirmPage';
import type { FeatureScreens } from '../../lib/screen-sources';

/** Sign-in screens are in the main chunk: they show before any screen chunk could arrive. */
export const authScreens = {
  login: { component: LoginPage },
  passwordConfirm: { component: PasswordConfirmPage },
} satisfies FeatureScreens;
