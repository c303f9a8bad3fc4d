import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// `@opentelemetry/api` is an optional peer: the built package works without
// it, in both module systems, and with it but no SDK registered it records
// and sends nothing.

const root = join(__dirname, '..', '..');
const program = join(root, 'spec/fixtures/otel-absent-client.mjs');
const hide = join(root, 'spec/fixtures/without-otel.mjs');

function run(build: 'esm' | 'cjs', withoutApi: boolean): { api: string; received: unknown; batch: string } {
  const args = [...(withoutApi ? ['--import', hide] : []), program, build];
  return JSON.parse(execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 30_000 })) as { api: string; received: unknown; batch: string };
}

describe.each(['esm', 'cjs'] as const)('the %s build', (build) => {
  it('calls tools and runs batches where @opentelemetry/api is not installed', () => {
    expect(run(build, true)).toEqual({ api: 'absent', received: {}, batch: '{}' });
  });

  it('sends no trace context while no OpenTelemetry SDK is registered', () => {
    expect(run(build, false)).toEqual({ api: 'loaded', received: {}, batch: '{}' });
  });
});
