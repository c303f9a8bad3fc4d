import { urlQuestionView } from '../../demos/web/url-question.js';

// The web demo's view of a URL question, apart from the DOM (jest runs without one): what is offered, what refused.

describe("the web demo's URL question", () => {
  it('2025-11-25 client/elicitation, Safe URL Handling: offers an https URL with its host set apart', () => {
    const view = urlQuestionView({ mode: 'url', message: 'Connect', url: 'https://Example.COM:8443/connect?x=1', elicitationId: 'e' });
    expect(view).toEqual({ message: 'Connect', offer: { url: 'https://example.com:8443/connect?x=1', host: 'example.com:8443', before: 'https://', after: '/connect?x=1' } });
  });

  it('shows an international host in punycode, so a lookalike is seen for what it is', () => {
    const view = urlQuestionView({ mode: 'url', message: 'm', url: 'https://аpple.com/' });
    expect('offer' in view && view.offer.host).toBe('xn--pple-43d.com');
  });

  it.each([
    ['javascript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['http://example.com/plain'],
    ['https://bank.example@evil.example/'],
    ['https://evil.example/\u001b[2J'],
    ['https://evil.example/\npath'],
    [undefined],
  ])('2025-11-25 client/elicitation, Safe URL Handling: never offers %j', (url) => {
    const view = urlQuestionView({ mode: 'url', message: 'm', url });
    expect('offer' in view).toBe(false);
    expect('refused' in view && view.refused.reason).toMatch(/^the URL/);
  });
});
