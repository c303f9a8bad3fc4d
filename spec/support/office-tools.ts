import { z } from 'zod';
import { Policy, Toolkit } from '../../src/index.js';

/**
 * The tools of the recorded vendor conversations: a read-only weather lookup
 * and an email sender, behind a Policy whose human refuses every question
 * (so sending mail is "Denied by the user").
 */
export function officeTools(): { kit: Toolkit; policy: Policy } {
  const kit = new Toolkit({ name: 'office' })
    .tool(
      'get_weather',
      { description: 'Current weather in a city', input: z.object({ location: z.string().describe('City name') }), annotations: { readOnlyHint: true, idempotentHint: true } },
      ({ location }) => ({ content: [{ type: 'text', text: `Sunny, 21 °C in ${location}` }], structuredContent: { location, celsius: 21, sky: 'sunny' } }),
    )
    .tool('send_email', { description: 'Sends an email', input: z.object({ to: z.string(), body: z.string() }) }, ({ to }) => ({
      content: [{ type: 'text', text: `sent to ${to}` }],
    }));
  return { kit, policy: new Policy({ provider: kit, rules: Policy.defaultRules(), onAsk: () => ({ action: 'deny-once' }) }) };
}
