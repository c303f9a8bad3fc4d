import { inspect } from 'node:util';
import { McpStoreError } from 'rxmcp';
import { RedisPins } from 'rxmcp/redis';

// A Redis URL carries its password: whatever goes wrong with it, no error
// (its message, its causes, what a logger prints of it) may carry it on.

describe('a Redis URL with a password', () => {
  const password = 's3cret-redis-pw';

  it('that node-redis cannot read fails the store with an error that holds no part of the password, causes included', async () => {
    for (const url of [`redis://user:${password}@127.0.0.1:notaport`, `redis://user:${password}@[::1`, `http://user:${password}@127.0.0.1:6379`]) {
      const store = new RedisPins({ url, namespace: 'n' });
      const error = await store.read(['t']).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      await store.close();
      expect(error).toBeInstanceOf(McpStoreError);
      // What console.error(error) prints: the message, the stack and every cause with its fields.
      expect(inspect(error, { depth: 10 })).not.toContain(password);
    }
  });
});
