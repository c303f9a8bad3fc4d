import { RunningCall } from '../../src/gateway/running-call.js';

// The keys a call's questions reach the host under: the upstream server's own
// (untrusted) when they are free and sane (a second "a", a key of 300
// characters and one the gateway has handed out already are not), else the
// gateway's.

const host = () => ({
  capabilities: { elicitation: {} },
  inputResponses: undefined,
  progressToken: undefined,
  principal: 'connection:spec',
  notify: async () => undefined,
  signal: new AbortController().signal,
});
const question = { method: 'elicitation/create', params: { message: 'Name?' } };

it("puts questions to the host under the server's keys when free, and under fresh ones otherwise", async () => {
  const call = new RunningCall<unknown>(host());
  call.begin(() =>
    Promise.all(
      [{ key: '__proto__' }, { key: 'a' }, { key: 'a' }, { key: 'x'.repeat(300) }, { key: 'rxmcp-q1' }, {}].map((extra) =>
        call.ask({ ...question, ...extra }),
      ),
    ),
  );
  const outcome = await call.next();
  if (!('ask' in outcome)) throw new Error('the call asked nothing');
  expect(Object.getPrototypeOf(outcome.ask)).toBe(Object.prototype);
  expect(Object.keys(outcome.ask)).toEqual(['__proto__', 'a', 'rxmcp-q1', 'rxmcp-q2', 'rxmcp-q3', 'rxmcp-q4']);
  const answer = { action: 'accept', content: { name: 'Ada' } };
  call.answer(Object.fromEntries(Object.keys(outcome.ask).map((key) => [key, answer])));
  expect(await call.next()).toEqual({ done: Array(6).fill(answer) });
});

it("never lets an upstream server's key take one of the gateway's own names (rxmcp-…)", async () => {
  const call = new RunningCall<unknown>(host());
  call.begin(() => call.ask({ ...question, key: 'rxmcp-permission-0123456789abcdef01234567' }).catch(() => undefined));
  const outcome = await call.next();
  if (!('ask' in outcome)) throw new Error('the call asked nothing');
  expect(Object.keys(outcome.ask)).toEqual(['rxmcp-q1']);
  call.abandon('done');
});
