import { iconSrcProblem, keepSafeIcons } from '../../src/protocol/icons.js';

// The icon check on its own: which src values pass, and what an item keeps.

describe('iconSrcProblem', () => {
  it.each([
    'https://example.com/a.png',
    'HTTPS://example.com/a.png',
    'data:image/png;base64,iVBORw0KGgo=',
    'data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E',
    'data:image/webp;base64,UklGRg==',
  ])('2025-11-25 basic, icons: keeps %s', (src) => {
    expect(iconSrcProblem(src)).toBeUndefined();
  });

  it.each([
    ['JavaScript:alert(1)', 'the "javascript:" scheme'],
    ['http://example.com/a.png', 'the "http:" scheme'],
    ['file:///etc/passwd', 'the "file:" scheme'],
    ['ws://example.com/', 'the "ws:" scheme'],
    ['//example.com/a.png', 'a src with no scheme'],
    ['data:text/html;base64,PHNjcmlwdD4=', 'a data: URL of type "text/html"'],
    ['data:image/svg+xml,<svg onload="alert(1)"/>', 'a data: URL with characters it may not hold'],
    ['data:image/png;base64,not base64!', 'a data: URL with characters it may not hold'],
    ['https://example.com/\u001b]8;;x\u0007', 'an https: URL with characters it may not hold'],
    ['https://user:pw@example.com/a.png', 'an https: URL carrying credentials'],
    [`https://example.com/${'a'.repeat(3000)}`, 'an https: URL over 2048 characters'],
    [`data:image/png;base64,${'A'.repeat(70_000)}`, 'a src over 65536 characters'],
  ])('2025-11-25 basic, icons, Security considerations: MUST reject %s', (src, why) => {
    expect(iconSrcProblem(src)).toBe(why);
  });
});

describe('keepSafeIcons', () => {
  it('keeps only the checked members, own keys only, and leaves items without icons alone', () => {
    const hostile = JSON.parse('{"name":"t","icons":[{"src":"https://example.com/a.png","theme":"neon","sizes":["48x48",7,"0x0"],"onload":"x","__proto__":{"src":"javascript:1"}},{"__proto__":{"src":"https://example.com/ghost.png"}}]}');
    const plain = { name: 'plain' };
    const report = keepSafeIcons([hostile, plain, null, 'text'], (item) => String(item.name));
    expect(hostile.icons).toEqual([{ src: 'https://example.com/a.png', sizes: ['48x48'] }]);
    expect(Object.keys(hostile.icons[0])).toEqual(['src', 'sizes']);
    expect(plain).toEqual({ name: 'plain' });
    expect(report).toEqual({ dropped: 1, items: 1, first: 't: a src that is not a string' });
  });
});
