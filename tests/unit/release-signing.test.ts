import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { signingPlan } from '../../scripts/release-signing';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const azure = {
  AZURE_TENANT_ID: 't',
  AZURE_CLIENT_ID: 'c',
  AZURE_CLIENT_SECRET: 's',
  AZURE_PUBLISHER_NAME: 'Back-office SAS',
  AZURE_TRUSTED_SIGNING_ENDPOINT: 'https://weu.codesigning.azure.net',
  AZURE_CODE_SIGNING_ACCOUNT: 'backoffice',
  AZURE_CERTIFICATE_PROFILE: 'public-trust',
};

describe('release signing from the environment (npm run dist)', () => {
  it('signs Windows with Azure Trusted Signing, else CSC_LINK, else says it is skipped', () => {
    expect(signingPlan(azure, 'win32')).toEqual({
      config: {
        win: {
          azureSignOptions: {
            publisherName: 'Back-office SAS',
            endpoint: 'https://weu.codesigning.azure.net',
            codeSigningAccountName: 'backoffice',
            certificateProfileName: 'public-trust',
          },
        },
      },
      lines: ['Windows: signed with Azure Trusted Signing (backoffice/public-trust)'],
    });
    // Half the Azure variables: not Azure (electron-builder would fail half-way), the certificate if there is one.
    const partial = signingPlan({ ...azure, AZURE_CLIENT_SECRET: '', CSC_LINK: 'cert.pfx', CSC_KEY_PASSWORD: 'x' }, 'win32');
    expect(partial.config).toEqual({});
    expect(partial.lines[0]).toMatch(/^Windows: signed with the certificate of WIN_CSC_LINK\/CSC_LINK/);
    expect(signingPlan({}, 'win32')).toEqual({ config: {}, lines: [expect.stringMatching(/^Windows: signing skipped \(no CSC_LINK/)] });
  });

  it('signs macOS with a Developer ID and notarises only with Apple credentials; skips both without an identity', () => {
    const unsigned = signingPlan({ APPLE_ID: 'a', APPLE_APP_SPECIFIC_PASSWORD: 'p', APPLE_TEAM_ID: 't' }, 'darwin');
    expect(unsigned.config).toEqual({ mac: { identity: null, notarize: false } });
    expect(unsigned.lines).toEqual([expect.stringMatching(/^macOS: signing and notarisation skipped/)]);
    const signed = signingPlan({ CSC_LINK: 'id.p12', CSC_KEY_PASSWORD: 'x' }, 'darwin');
    expect(signed.config).toEqual({ mac: { notarize: false } });
    expect(signed.lines[0]).toMatch(/notarisation skipped/);
    for (const apple of [
      { APPLE_API_KEY: 'key.p8', APPLE_API_KEY_ID: 'k', APPLE_API_ISSUER: 'i' },
      { APPLE_ID: 'a', APPLE_APP_SPECIFIC_PASSWORD: 'p', APPLE_TEAM_ID: 't' },
    ]) {
      expect(signingPlan({ CSC_LINK: 'id.p12', ...apple }, 'darwin').config).toEqual({ mac: { notarize: true } });
    }
  });

  it('ships the hardened runtime entitlements V8 needs', () => {
    const builder = readFileSync(root('electron-builder.yml'), 'utf8');
    expect(builder).toMatch(/^ {2}hardenedRuntime: true$/m);
    expect(builder).toMatch(/^ {2}entitlements: resources\/entitlements\.mac\.plist$/m);
    const entitlements = readFileSync(root('resources/entitlements.mac.plist'), 'utf8');
    expect(entitlements).toContain('<key>com.apple.security.cs.allow-jit</key>');
    // Squirrel.Mac updates from a zip: the mac targets include one.
    expect(builder).toMatch(/- target: zip/);
  });
});
