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

  it('opens the app\'s own routes (the spec\'s "new tab") in a second app window, never in the browser', () => {
    // The targets grid's advert link (window.open) and the advert list's audience tags (target="_blank").
    expect(decideExternalLink('app://renderer/adverts/edit/5', context)).toEqual({ action: 'app-window', path: '/adverts/edit/5' });
    expect(decideExternalLink('app://renderer/audiences/12', context)).toEqual({ action: 'app-window', path: '/audiences/12' });
    expect(decideExternalLink('app://renderer/adverts?type=BANNER#top', context)).toEqual({ action: 'app-window', path: '/adverts?type=BANNER#top' });
    // Without a known API the route still opens: only media need it.
    expect(decideExternalLink('app://renderer/audiences/12', { ...context, apiBase: null })).toEqual({ action: 'app-window', path: '/audiences/12' });
  });

  it('decides on the path Chromium will open: dot segments and backslashes resolved first', () => {
    // app is a standard scheme in Chromium (backslash = slash, then dot segments), an opaque one for Node's parser.
    for (const url of [
      'app://renderer/cdn/..\\..\\setup',
      'app://renderer/cdn\\..\\setup',
      'app://renderer/cdn/%2e%2e/setup',
      'app://renderer/cdn/../setup',
    ]) {
      expect(decideExternalLink(url, context), url).toEqual({ action: 'app-window', path: '/setup' });
    }
    expect(decideExternalLink('app://renderer/cdn\\assets\\bat\\1.png', context)).toEqual({
      action: 'open',
      url: 'http://127.0.0.1:43123/cdn/assets/bat/1.png',
    });
    expect(decideExternalLink('app://renderer/admin/..\\cdn/a.png?x=1', context)).toEqual({
      action: 'open',
      url: 'http://127.0.0.1:43123/cdn/a.png?x=1',
    });
  });

  it('refuses other hosts of the app scheme, other schemes, http outside the tools and links with credentials', () => {
    for (const url of [
      'app://other/cdn/x.png',
      'app://other/adverts/edit/5',
      // A password-reset deep link inside a page is not how the app opens its pages (the OS hands it to main).
      'backoffice://app/password/confirm?confirmationToken=abc',
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
        openAppWindow: (path) => opened.push(`window ${path}`),
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
    expect(await run('app://renderer/adverts/edit/5', false)).toEqual({ outcome: 'app-window', asked: [], opened: ['window /adverts/edit/5'] });
  });

  it('has the texts of the dialog', () => {
    expect([MESSAGES.confirmOpenLink, MESSAGES.confirmOpenLinkAccept, MESSAGES.confirmOpenLinkCancel]).toEqual([
      'Ouvrir ce lien dans le navigateur ?',
      'Ouvrir',
      'Annuler',
    ]);
  });
});
