import { checkElicitationUrl, MAX_ELICITATION_URL_CHARS } from '../../../src/client/questions/elicitation-url';

describe('checkElicitationUrl', () => {
  it.each([
    ['https://auth.example.com/connect?id=1', 'auth.example.com'],
    ['https://xn--bcher-kva.example/pay', 'xn--bcher-kva.example'],
    ['https://bücher.example/pay', 'xn--bcher-kva.example'],
    ['http://127.0.0.1:8080/key', '127.0.0.1:8080'],
    ['http://localhost:3000/', 'localhost:3000'],
    ['http://[::1]:9/x', '[::1]:9'],
    ['http://0x7f.1/x', '127.0.0.1'],
  ])('offers %s, showing the host %s apart', (raw, host) => {
    expect(checkElicitationUrl(raw)).toEqual({ ok: true, url: new URL(raw).href, host });
  });

  it.each([
    ['javascript:alert(1)', /scheme javascript: is not https/],
    ['data:text/html,<script>x</script>', /scheme data:/],
    ['file:///etc/passwd', /scheme file:/],
    ['http://auth.example.com/connect', /plain http to another machine/],
    ['http://10.0.0.1/connect', /plain http to another machine/],
    ['http://0/admin', /plain http to another machine/],
    ['http://0.0.0.0:8080/admin', /plain http to another machine/],
    [`https://accounts.example.com.${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.evil.example/`, /longer than DNS allows \(253/],
    [`https://${'a'.repeat(64)}.evil.example/`, /label longer than DNS allows/],
    ['https://bank.example@evil.example/', /user name or password/],
    ['https://user:pw@auth.example/', /user name or password/],
    ['https://auth.example/\u001b[2Jcleared', /control characters/],
    ['https://auth.example/\nsecond-line', /control characters/],
    ['not a url', /cannot be parsed/],
    ['', /missing/],
    [42, /missing/],
    [`https://auth.example/${'a'.repeat(MAX_ELICITATION_URL_CHARS)}`, /longer than/],
  ])('refuses %j', (raw, reason) => {
    const checked = checkElicitationUrl(raw);
    expect(checked.ok).toBe(false);
    expect(checked.ok === false && checked.reason).toMatch(reason);
  });

  it('shows a right-to-left override percent-encoded, so what is shown is what is opened', () => {
    expect(checkElicitationUrl('https://auth.example/\u202epage')).toEqual({ ok: true, url: 'https://auth.example/%E2%80%AEpage', host: 'auth.example' });
  });
});
