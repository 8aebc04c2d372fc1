/**
 * How `npm run dist` signs, from the environment a release manager sets (electron-builder's own variables, see
 * its "Code Signing" and "Notarize" docs): what to add to electron-builder.yml, and one line per platform saying
 * what will happen, so that an unsigned build says so instead of failing or passing silently.
 */
type Env = Record<string, string | undefined>;

export interface SigningPlan {
  /** Merged over electron-builder.yml by electron-builder's build({ config }). */
  config: { win?: { azureSignOptions: Record<string, string> }; mac?: { identity?: null; notarize: boolean } };
  lines: string[];
}

const AZURE_CREDENTIALS = ['AZURE_TENANT_ID', 'AZURE_CLIENT_ID', 'AZURE_CLIENT_SECRET'] as const;
const AZURE_ACCOUNT = {
  publisherName: 'AZURE_PUBLISHER_NAME',
  endpoint: 'AZURE_TRUSTED_SIGNING_ENDPOINT',
  codeSigningAccountName: 'AZURE_CODE_SIGNING_ACCOUNT',
  certificateProfileName: 'AZURE_CERTIFICATE_PROFILE',
} as const;

const has = (env: Env, ...names: string[]) => names.every((name) => Boolean(env[name]?.trim()));

export function signingPlan(env: Env, platform: NodeJS.Platform): SigningPlan {
  const plan: SigningPlan = { config: {}, lines: [] };
  if (platform === 'win32') {
    if (has(env, ...AZURE_CREDENTIALS, ...Object.values(AZURE_ACCOUNT))) {
      const options = Object.fromEntries(Object.entries(AZURE_ACCOUNT).map(([key, name]) => [key, env[name]!.trim()]));
      plan.config.win = { azureSignOptions: options };
      plan.lines.push(`Windows: signed with Azure Trusted Signing (${options.codeSigningAccountName}/${options.certificateProfileName})`);
    } else if (has(env, 'WIN_CSC_LINK') || has(env, 'CSC_LINK')) {
      plan.lines.push('Windows: signed with the certificate of WIN_CSC_LINK/CSC_LINK (password: WIN_CSC_KEY_PASSWORD/CSC_KEY_PASSWORD)');
    } else {
      plan.lines.push(
        'Windows: signing skipped (no CSC_LINK nor Azure Trusted Signing variables): the installer is unsigned and SmartScreen will warn',
      );
    }
  }
  if (platform === 'darwin') {
    const identity = has(env, 'CSC_LINK') || has(env, 'CSC_NAME');
    const notarize =
      has(env, 'APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER') ||
      has(env, 'APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID') ||
      has(env, 'APPLE_KEYCHAIN_PROFILE');
    if (!identity) {
      // Without it electron-builder would pick whatever identity the build machine's keychain holds.
      plan.config.mac = { identity: null, notarize: false };
      plan.lines.push('macOS: signing and notarisation skipped (no CSC_LINK nor CSC_NAME): Gatekeeper will refuse the app and updates');
    } else if (!notarize) {
      plan.config.mac = { notarize: false };
      plan.lines.push(
        'macOS: signed with the Developer ID, notarisation skipped (no APPLE_API_KEY/APPLE_API_KEY_ID/APPLE_API_ISSUER nor APPLE_ID/APPLE_APP_SPECIFIC_PASSWORD/APPLE_TEAM_ID)',
      );
    } else {
      plan.config.mac = { notarize: true };
      plan.lines.push('macOS: signed with the Developer ID (hardened runtime, resources/entitlements.mac.plist) and notarised');
    }
  }
  if (platform !== 'win32' && platform !== 'darwin') plan.lines.push(`${platform}: no installer is signed on this platform`);
  return plan;
}
