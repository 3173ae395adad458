import { describe, expect, it } from 'vitest';
import { href, html, trusted } from '../../src/ui/html.js';

describe('html', () => {
  it('escapes interpolated strings and keeps markup built by html', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p title="${'"x'}">${inner}${['<a>', 1]}${undefined}${false}</p>`.markup).toBe(
      '<p title="&quot;x"><b>&lt;i&gt;</b>&lt;a&gt;1</p>',
    );
  });

  it('passes trusted markup as it is', () => {
    expect(html`${trusted('<hr>')}`.markup).toBe('<hr>');
  });
});

describe('href', () => {
  it('encodes each segment and the query, and always starts with one slash', () => {
    expect(href(['objects', '_a/b?c#d_apps_Deployment'], { kind: 'a&b' })).toBe(
      '/objects/_a%2Fb%3Fc%23d_apps_Deployment?kind=a%26b',
    );
    expect(href(['', 'evil.example'])).toBe('/evil.example'); // never '//evil.example' (another site)
  });

  it('cannot build a scheme from data', () => {
    expect(href(['javascript:alert(1)'])).toBe('/javascript%3Aalert(1)');
  });
});
