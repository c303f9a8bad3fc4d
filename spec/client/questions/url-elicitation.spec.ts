import { firstValueFrom } from 'rxjs';
import {
  MAX_ELICITATION_MESSAGE_CHARS,
  MAX_REQUIRED_ELICITATIONS,
  readRequiredElicitations,
  readUrlQuestion,
} from '../../../src/client/questions/elicitation-url';
import { InputBroker, type PendingQuestion } from '../../../src/client/questions/input-broker';
import { askHook } from '../../../src/client/questions/input-hooks';
import { urlElicitationError } from '../../../src/client/questions/url-elicitation-flow';
import { McpProtocolError, McpUrlElicitationRequiredError } from '../../../src/errors/protocol-errors';

const page = { url: 'https://auth.example/x', message: 'Connect', elicitationId: 'e1' };

describe('readUrlQuestion', () => {
  it('keeps only mode, message, the normalised url and (2025-11-25) the elicitationId', () => {
    const read = readUrlQuestion({ mode: 'url', message: 'Go', url: 'https://AUTH.example/a b', elicitationId: 'e', extra: 'dropped' }, true);
    expect(read).toEqual({ ok: true, params: { mode: 'url', message: 'Go', url: 'https://auth.example/a%20b', elicitationId: 'e' } });
  });

  it('leaves the elicitationId out in 2026-07-28', () => {
    expect(readUrlQuestion({ mode: 'url', message: 'Go', url: 'https://a.example/', elicitationId: 'e' }, false)).toEqual({
      ok: true,
      params: { mode: 'url', message: 'Go', url: 'https://a.example/' },
    });
  });

  it.each([
    [{ message: 'm'.repeat(MAX_ELICITATION_MESSAGE_CHARS + 1), url: 'https://a.example/', elicitationId: 'e' }, /message is longer/],
    [{ message: 7, url: 'https://a.example/', elicitationId: 'e' }, /message is missing/],
    [{ message: 'm', url: 'https://a.example/' }, /elicitationId/],
    [{ message: 'm', url: 'https://a.example/', elicitationId: 'i'.repeat(257) }, /elicitationId/],
    [{ message: 'm', url: 'https://u:p@a.example/', elicitationId: 'e' }, /user name or password/],
  ])('refuses %j', (params, reason) => {
    const read = readUrlQuestion(params as Record<string, unknown>, true);
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.reason).toMatch(reason);
  });
});

describe('readRequiredElicitations', () => {
  it('reads a well-formed list', () => {
    expect(readRequiredElicitations({ elicitations: [{ mode: 'url', ...page }] })).toEqual({ ok: true, elicitations: [page] });
  });

  it.each([
    ['no data', undefined, /no elicitations array/],
    ['elicitations only inherited', Object.create({ elicitations: [page] }) as unknown, /no elicitations array/],
    ['an empty list', { elicitations: [] }, /names no elicitation/],
    ['too many', { elicitations: Array.from({ length: MAX_REQUIRED_ELICITATIONS + 1 }, () => page) }, /more than 16/],
    ['an entry with an inherited url', { elicitations: [Object.assign(Object.create({ url: page.url }), { message: 'm', elicitationId: 'e' })] }, /no readable url/],
    ['an entry with a numeric id', { elicitations: [{ ...page, elicitationId: 4 }] }, /no readable elicitationId/],
    ['an entry that is a string', { elicitations: ['https://a.example/'] }, /no readable url/],
  ])('fails closed on %s', (_label, data, reason) => {
    const read = readRequiredElicitations(data);
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.reason).toMatch(reason);
  });
});

describe('urlElicitationError', () => {
  it('turns a readable -32042 into McpUrlElicitationRequiredError', () => {
    const read = urlElicitationError(new McpProtocolError('tools/call failed', -32042, { elicitations: [page] }, 'tools/call'));
    expect(read).toBeInstanceOf(McpUrlElicitationRequiredError);
    expect((read as McpUrlElicitationRequiredError).elicitations).toEqual([page]);
  });

  it('fails closed on an unreadable one, without carrying its data', () => {
    const read = urlElicitationError(new McpProtocolError('tools/call failed', -32042, { elicitations: 'all of them' }, 'tools/call'));
    expect(read).toBeInstanceOf(McpProtocolError);
    expect(read).not.toBeInstanceOf(McpUrlElicitationRequiredError);
    expect((read as McpProtocolError).data).toBeUndefined();
  });

  it('leaves other errors alone', () => {
    const other = new McpProtocolError('x', -32602, undefined, 'tools/call');
    expect(urlElicitationError(other)).toBe(other);
  });
});

describe('InputBroker carries URL questions', () => {
  it('shows a URL question as kind "url" with the checked params, and answers it', async () => {
    const broker = new InputBroker();
    const shown: PendingQuestion[] = [];
    broker.questions$.subscribe((question) => {
      shown.push(question);
      question.respond({ action: 'accept' });
    });
    const answer = await firstValueFrom(
      askHook({ method: 'elicitation/create', params: { mode: 'url', ...page } }, { onElicitUrl: broker.onElicitUrl }, () => undefined, 'test'),
    );
    expect(answer).toEqual({ action: 'accept' });
    expect(shown.map((question) => [question.kind, question.params])).toEqual([['url', { mode: 'url', ...page }]]);
  });

  it('a declined URL question answers decline; a form question is kind "form"', async () => {
    const broker = new InputBroker();
    const kinds: string[] = [];
    broker.questions$.subscribe((question) => {
      kinds.push(question.kind);
      question.decline();
    });
    const hooks = { onElicit: broker.onElicit, onElicitUrl: broker.onElicitUrl };
    const url = await firstValueFrom(askHook({ method: 'elicitation/create', params: { mode: 'url', ...page } }, hooks, () => undefined, 'test'));
    const form = await firstValueFrom(askHook({ method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } } }, hooks, () => undefined, 'test'));
    expect([url, form]).toEqual([{ action: 'decline' }, { action: 'decline' }]);
    expect(kinds).toEqual(['url', 'form']);
  });

  it('a URL that fails the check never reaches the broker', async () => {
    const broker = new InputBroker();
    const shown: PendingQuestion[] = [];
    broker.questions$.subscribe((question) => shown.push(question));
    const warnings: string[] = [];
    const answer = await firstValueFrom(
      askHook({ method: 'elicitation/create', params: { mode: 'url', ...page, url: 'javascript:alert(1)' } }, { onElicitUrl: broker.onElicitUrl }, (w) => warnings.push(w), 'test'),
    );
    expect(answer).toEqual({ action: 'decline' });
    expect(shown).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('scheme javascript:')]);
  });
});

describe('an elicitation in a mode the client does not know', () => {
  it.each([['URL'], ['url '], ['link'], [null], [42]])('2025-11-25 client/elicitation, Error Handling: declines mode %j on every path, never asking the form hook', async (mode) => {
    const asked: unknown[] = [];
    const warnings: string[] = [];
    const hooks = {
      onElicit: (request: unknown) => {
        asked.push(request);
        return { action: 'accept', content: {} };
      },
      onElicitUrl: (request: unknown) => {
        asked.push(request);
        return { action: 'accept' };
      },
    };
    const request = { method: 'elicitation/create', params: { mode, message: 'Sign in', url: 'javascript:alert(1)', requestedSchema: { type: 'object', properties: {} } } };
    const answer = await firstValueFrom(askHook(request, hooks, (message) => warnings.push(message), 'input request "a"', 'a'));
    expect(answer).toEqual({ action: 'decline' });
    expect(asked).toEqual([]);
    expect(warnings.join('\n')).toMatch(/mode this client does not know/);
  });
});
