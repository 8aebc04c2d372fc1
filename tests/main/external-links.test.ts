import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { decideExternalLink, openExternalLink, type ExternalLinkContext } from '../../src-main/services/external-links';

const context: ExternalLinkContext = {
  tools: ['http://short.intranet.local/admin', 'https://apps.example.com/', ''],
  appOrigin: 'app://renderer',
  apiBase: 'http://127.0.0.1:43123',
};

describe('links the desktop app hands to the browser', () => {
  it('opens the external tools of the settings (below their address) without asking', () => {
    expect(decideExternalLink('http://short.intranet.local/admin', context)).toEqual({ action: 'open', url: 'http://short.intranet.local/admin' });
    expect(decideExternalLink('http://short.intranet.local/admin/links?x=1', context)).toEqual({
      action: 'open',
      url: 'http://short.intranet.local/admin/links?x=1',
    });
    expect(decideExternalLink('https://apps.example.com/new', context)).toEqual({ action: 'open', url: 'https://apps.example.com/new' });
  });

  it("opens the product's media and documents at the API's address, query (signature) kept", () => {
    const document = 'app://renderer/cdn/assets/clients/Labo%20X/brief.pdf?expires=1700000600&signature=abc';
    expect(decideExternalLink(document, context)).toEqual({
      action: 'open',
      url: 'http://127.0.0.1:43123/cdn/assets/clients/Labo%20X/brief.pdf?expires=1700000600&signature=abc',
    });
    expect(decideExternalLink('app://renderer/cdn/assets/bat/1.png', { ...context, apiBase: 'https://api.example.com/platform/' })).toEqual({
      action: 'open',
      url: 'https://api.example.com/platform/cdn/assets/bat/1.png',
    });
    expect(decideExternalLink('http://127.0.0.1:43123/cdn/assets/adverts/1/a.png', context)).toEqual({
      action: 'open',
      url: 'http://127.0.0.1:43123/cdn/assets/adverts/1/a.png',
    });
    // Without a known API there is nowhere to send them.
    expect(decideExternalLink(document, { ...context, apiBase: null })).toEqual({ action: 'refuse' });
  });

  it('asks before any other https link, showing it parsed', () => {
    expect(decideExternalLink('https://docs.example.com/a?b=c', context)).toEqual({ action: 'ask', url: 'https://docs.example.com/a?b=c' });
    expect(decideExternalLink('https://short.intranet.local/administration', context)).toEqual({
      action: 'ask',
      url: 'https://short.intranet.local/administration',
    });
    expect(decideExternalLink('https://apps.example.com.evil.example/', context).action).toBe('ask');
    expect(decideExternalLink('https://127.0.0.1:43123/cdn/x.png', context).action).toBe('ask');
  });

  it('refuses in-app routes, other schemes, http outside the tools and links with credentials', () => {
    for (const url of [
      'app://renderer/adverts/edit/5',
      'app://renderer/cdn/../admin',
      'app://renderer/cdn/%2e%2e/admin',
      // The browser reads backslashes as slashes in http: this is http://<api>/setup once opened.
      'app://renderer/cdn/..\\..\\setup',
      'app://renderer/cdn/%2e%2e\\setup',
      'app://renderer/cdn\\..\\setup',
      'app://other/cdn/x.png',
      'http://docs.example.com/a',
      'http://short.intranet.local/administration',
      'http://short.intranet.local/',
      'http://short.intranet.local.evil.example/admin',
      'http://127.0.0.1:43123/admin',
      'http://127.0.0.1:43123/cdnx/a.png',
      'https://user:secret@docs.example.com/',
      'http://user:secret@short.intranet.local/admin',
      'file:///C:/Windows/system32/calc.exe',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'mailto:someone@example.com?attach=/etc/passwd',
      'smb://host/share',
      'ms-msdt:/id',
      '',
      'not a url',
    ]) {
      expect(decideExternalLink(url, context), url).toEqual({ action: 'refuse' });
    }
  });

  it('opens only what was decided, and an asked link only after a yes', async () => {
    const run = async (url: string, answer: boolean) => {
      const asked: string[] = [];
      const opened: string[] = [];
      const outcome = await openExternalLink(url, context, {
        confirm: async (address) => {
          asked.push(address);
          return answer;
        },
        open: async (address) => {
          opened.push(address);
        },
      });
      return { outcome, asked, opened };
    };
    expect(await run('https://docs.example.com/', false)).toEqual({ outcome: 'declined', asked: ['https://docs.example.com/'], opened: [] });
    expect(await run('https://docs.example.com/', true)).toEqual({
      outcome: 'opened',
      asked: ['https://docs.example.com/'],
      opened: ['https://docs.example.com/'],
    });
    expect(await run('https://apps.example.com/x', false)).toEqual({ outcome: 'opened', asked: [], opened: ['https://apps.example.com/x'] });
    expect(await run('file:///etc/passwd', true)).toEqual({ outcome: 'refused', asked: [], opened: [] });
  });

  it('has the texts of the dialog', () => {
    expect([MESSAGES.confirmOpenLink, MESSAGES.confirmOpenLinkAccept, MESSAGES.confirmOpenLinkCancel]).toEqual([
      'Ouvrir ce lien dans le navigateur ?',
      'Ouvrir',
      'Annuler',
    ]);
  });
});
