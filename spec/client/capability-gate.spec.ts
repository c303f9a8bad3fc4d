import { capabilityRefusal, declares } from '../../src/client/capability-gate.js';
import type { Session } from '../../src/client/session.js';

const session = (capabilities: Record<string, unknown>, unknown = false): Session =>
  ({ description: { capabilities }, ...(unknown ? { capabilitiesUnknown: true } : {}) }) as unknown as Session;

describe('what a server declared, read from untrusted JSON', () => {
  it('counts a capability present as declared, and a flag under it only when exactly true', () => {
    expect(declares({ tools: {} }, ['tools'])).toBe(true);
    expect(declares({ resources: {} }, ['resources', 'subscribe'])).toBe(false);
    expect(declares({ resources: { subscribe: 'yes' } }, ['resources', 'subscribe'])).toBe(false);
    expect(declares({ resources: { subscribe: true } }, ['resources', 'subscribe'])).toBe(true);
  });

  it('reads own keys only: null, false and prototype keys declare nothing', () => {
    expect(declares({ tools: null }, ['tools'])).toBe(false);
    expect(declares({ tools: false }, ['tools'])).toBe(false);
    const parsed = JSON.parse('{"__proto__": {"tools": {}}, "resources": {"__proto__": {"subscribe": true}}}') as Record<string, unknown>;
    expect(declares(parsed, ['tools'])).toBe(false);
    expect(declares(parsed, ['resources', 'subscribe'])).toBe(false);
    expect(declares(Object.create({ tools: {} }) as Record<string, unknown>, ['tools'])).toBe(false);
    expect(declares({ resources: 'subscribe' }, ['resources', 'subscribe'])).toBe(false);
  });

  it('gates only the methods that need a capability, and nothing when the capabilities are unknown', () => {
    expect(capabilityRefusal(session({}), 'ping')).toBeUndefined();
    expect(capabilityRefusal(session({}), 'tasks/get')).toBeUndefined();
    expect(capabilityRefusal(session({}), 'toString')).toBeUndefined();
    expect(capabilityRefusal(session({}), 'resources/unsubscribe')).toMatchObject({ capability: 'resources.subscribe', method: 'resources/unsubscribe' });
    expect(capabilityRefusal(session({}, true), 'tools/call')).toBeUndefined();
  });

  it('2024-11-05 server/utilities/completion: does not gate completion on a capability that revision had not named yet', () => {
    const at = (protocolVersion: string): Session => ({ description: { capabilities: { prompts: {} }, protocolVersion } }) as unknown as Session;
    expect(capabilityRefusal(at('2024-11-05'), 'completion/complete')).toBeUndefined();
    expect(capabilityRefusal(at('2025-03-26'), 'completion/complete')).toMatchObject({ capability: 'completions' });
    expect(capabilityRefusal(at('2025-11-25'), 'completion/complete')).toMatchObject({ capability: 'completions' });
  });
});
