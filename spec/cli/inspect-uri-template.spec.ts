import fc from 'fast-check';
import { expandTemplate, MAX_TEMPLATE_CHARS, MAX_VARIABLES, templateVariables } from '../../src/cli/inspect/page/uri-template.js';

// The URI templates of the inspector's template form: a template is the
// server's, a value is typed by the user or picked from the server's
// completions.

const values = (entries: Record<string, string>): Map<string, string> => new Map(Object.entries(entries));

describe('templateVariables', () => {
  it('names each variable once, in order, whatever operator or modifier it carries', () => {
    expect(templateVariables('demo://resource/{kind}/{+path}{?q,lang}{&q}{#frag}{id:3}{list*}')).toEqual(['kind', 'path', 'q', 'lang', 'frag', 'id', 'list']);
  });

  it('leaves out what is not an expression', () => {
    expect(templateVariables('a://{}/{ bad }/{b-c}/{ok}')).toEqual(['ok']);
  });

  it('names no more than MAX_VARIABLES, and nothing for a template past MAX_TEMPLATE_CHARS', () => {
    expect(templateVariables(Array.from({ length: 1000 }, (_, index) => `{v${index}}`).join('/'))).toHaveLength(MAX_VARIABLES);
    expect(templateVariables(`{a}${'x'.repeat(MAX_TEMPLATE_CHARS)}`)).toEqual([]);
  });
});

describe('expandTemplate', () => {
  it('expands each operator as RFC 6570 says', () => {
    const given = values({ var: 'value', hello: 'Hello World!', path: '/foo/bar', x: '1024', y: '768', empty: '' });
    expect(expandTemplate('{var}', given)).toBe('value');
    expect(expandTemplate('{hello}', given)).toBe('Hello%20World%21');
    expect(expandTemplate('{+path}/here', given)).toBe('/foo/bar/here');
    expect(expandTemplate('{+hello}', given)).toBe('Hello%20World!');
    expect(expandTemplate('X{#var}', given)).toBe('X#value');
    expect(expandTemplate('X{.x,y}', given)).toBe('X.1024.768');
    expect(expandTemplate('{/var,x}/here', given)).toBe('/value/1024/here');
    expect(expandTemplate('{;x,y,empty}', given)).toBe(';x=1024;y=768;empty');
    expect(expandTemplate('{?x,y,empty}', given)).toBe('?x=1024&y=768&empty=');
    expect(expandTemplate('?fixed=yes{&x}', given)).toBe('?fixed=yes&x=1024');
    expect(expandTemplate('{var:3}', given)).toBe('val');
  });

  it('leaves out a variable with no value, and an expression with none at all', () => {
    expect(expandTemplate('demo://r/{id}{?q,lang}', values({ id: '7', lang: 'fr' }))).toBe('demo://r/7?lang=fr');
    expect(expandTemplate('demo://r/{id}', values({}))).toBe('demo://r/');
  });

  it('reads a variable named like an Object member as any other (unset: left out)', () => {
    expect(expandTemplate('{constructor}/{__proto__}/{toString}', new Map([['__proto__', 'p']]))).toBe('/p/');
  });

  it('keeps a percent-encoded triplet where reserved characters may pass, and encodes a lone % there', () => {
    expect(expandTemplate('{+v}', values({ v: '%41%zz' }))).toBe('%41%25zz');
  });

  it('encodes every character of a value but the unreserved ones, and gives the value back when decoded', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (value) => {
        const expanded = expandTemplate('{v}', values({ v: value }));
        const wellFormed = (value as unknown as { toWellFormed(): string }).toWellFormed();
        return /^(?:[A-Za-z0-9\-._~]|%[0-9A-F]{2})*$/.test(expanded) && decodeURIComponent(expanded) === wellFormed;
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on a template of the server\'s, whatever it holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 20 }), (template, value) => {
        const names = templateVariables(template);
        return typeof expandTemplate(template, new Map(names.map((name) => [name, value]))) === 'string';
      }),
      { numRuns: 1000 },
    );
  });
});
