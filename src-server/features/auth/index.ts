import { unusablePasswordHash } from '../../auth/passwords';
import { FailureLimiter, SignInThrottle } from '../../auth/rate-limit';
import type { ServerContext } from '../../context';
import { defineFeature } from '../../feature-wiring';
import { authHandlers, type AuthHandlers } from './handlers/sign-in';
import { createSessionIssuer } from './sessions';

/** Sign-in, session refresh and password links: builds the feature's own services, returns its handlers. */
export const authFeature = defineFeature({
  name: 'auth',
  needs: [],
  provides: [],
  build: async (context) => ({ handlers: await authFeatureHandlers(context) }),
});

async function authFeatureHandlers(context: ServerContext): Promise<AuthHandlers> {
  const { config, clock } = context;
  const window = config.loginWindowMs;
  return authHandlers(context, {
    signInThrottle: new SignInThrottle(config, clock),
    resetMailLimiter: new FailureLimiter({ maxFailures: config.maxResetMailsPerUsername, windowMs: window }, clock),
    resetAddressLimiter: new FailureLimiter({ maxFailures: config.maxResetRequestsPerAddress, windowMs: window }, clock),
    decoyPasswordHash: await unusablePasswordHash(),
    issueSession: createSessionIssuer(context.tokens),
  });
}
