import { firstValueFrom, type Subscription } from 'rxjs';
import type { InputHooks } from '../protocol/input-request.js';
import { McpProtocolError } from '../errors/protocol-errors.js';
import { isObject, messageOf } from '../util/values.js';
import { answerTooDeep, MAX_ANSWER_DEPTH } from './argument-bounds.js';
import type { SdkContext, SdkServer, ServerSdk } from './server-sdk.js';
import type { Upstreams } from './upstreams.js';

/** The most characters of an upstream message passed on in an error. */
const MAX_MESSAGE_CHARS = 4_000;

/** What the forwarding handlers share with the gateway. */
export interface UpstreamRouting {
  upstreams: Upstreams;
  /** The upstream resource subscriptions, by the URI the hosts see. */
  watches: Map<string, Subscription>;
  onWarn: (message: string) => void;
  /** Told a subscribed resource (as the hosts see it) was updated. */
  onUpdated: (uri: string) => void;
  /**
   * Serves one round of a request whose upstream server may ask questions
   * (a 2026-07-28 server's `input_required`): `run` does the upstream work
   * once, with hooks that carry each question to the host in rounds, as a
   * tool call's are; a retry with `requestState` (sealed to the request's
   * `params`) resumes it. `server` is the prefix of the server asked, shown
   * with its questions.
   */
  rounds: (
    ctx: SdkContext,
    method: string,
    request: { params: Record<string, unknown>; server: string | undefined },
    run: (input: InputHooks, signal: AbortSignal) => Promise<unknown>,
  ) => Promise<unknown>;
}

/**
 * Registers on one SDK server instance the handlers of resources/*,
 * prompts/* and completion/complete, each forwarded to the upstream server
 * owning the name or URI it names, with names and URIs shown and read back
 * by `Upstreams`.
 */
export function routeUpstreams(sdk: ServerSdk, server: Pick<SdkServer, 'setRequestHandler'>, context: UpstreamRouting): void {
  const up = context.upstreams;
  const warnFailed = (prefix: string, error: unknown): void => context.onWarn(`server ${JSON.stringify(prefix)} could not be listed: ${messageOf(error)}`);
  // An upstream's JSON-RPC error keeps its code; any other failure is an internal error saying why.
  const relay = async <T>(work: () => Promise<T>): Promise<T> => {
    let answer: T;
    try {
      answer = await work();
    } catch (error) {
      if (error instanceof McpProtocolError && error.code !== undefined) {
        throw new sdk.ProtocolError(error.code, bounded(error.message), answerTooDeep(error.data) ? undefined : error.data);
      }
      if (error instanceof sdk.ProtocolError) throw error;
      throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InternalError, bounded(messageOf(error)));
    }
    if (answerTooDeep(answer)) throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InternalError, `The server's answer nests deeper than ${MAX_ANSWER_DEPTH} levels, so it was not passed on`);
    return answer;
  };
  server.setRequestHandler('resources/list', async () => ({
    resources: await up.gather(async (client, prefix) => (await firstValueFrom(client.listResources())).map((item) => ({ ...item, uri: up.showUri(prefix, item.uri) })), warnFailed),
  }));
  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: await up.gather(
      async (client, prefix) => (await firstValueFrom(client.listResourceTemplates())).map((item) => ({ ...item, uriTemplate: up.showUri(prefix, item.uriTemplate) })),
      warnFailed,
    ),
  }));
  server.setRequestHandler('prompts/list', async () => ({
    prompts: await up.gather(async (client, prefix) => (await firstValueFrom(client.listPrompts())).map((item) => ({ ...item, name: up.showName(prefix, item.name) })), warnFailed),
  }));
  const ownerOfUri = (uri: unknown) => {
    const owner = typeof uri === 'string' ? up.ownerOfUri(uri) : undefined;
    if (!owner) throw new sdk.ResourceNotFoundError(String(uri), `Resource not found: ${JSON.stringify(String(uri)).slice(0, 300)}`);
    return owner;
  };

  server.setRequestHandler('resources/read', (request, ctx) =>
    relay(() =>
      context.rounds(ctx, 'resources/read', { params: request.params ?? {}, server: up.prefixOf(request.params?.uri, 'uri') }, async (input, signal) => {
        const owner = ownerOfUri(request.params?.uri);
        const result = await firstValueFrom(owner.client.readResource(owner.value, { signal, input }));
        return { ...result, contents: result.contents.map((item) => ({ ...item, uri: up.showUri(owner.prefix, item.uri) })) };
      }),
    ),
  );
  server.setRequestHandler('resources/subscribe', (request) =>
    relay(async () => {
      const shown = String(request.params?.uri);
      const owner = ownerOfUri(shown);
      if (!context.watches.has(shown)) {
        const watch = owner.client.listen({ resourceSubscriptions: [owner.value] }).subscribe({
          next: (notification) => {
            if (notification.method === 'notifications/resources/updated') context.onUpdated(shown);
          },
          error: (error: unknown) => context.onWarn(`updates of ${JSON.stringify(shown)} stopped: ${messageOf(error)}`),
        });
        context.watches.set(shown, watch);
      }
      return {};
    }),
  );
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    const shown = String(request.params?.uri);
    context.watches.get(shown)?.unsubscribe();
    context.watches.delete(shown);
    return {};
  });
  server.setRequestHandler('prompts/get', (request, ctx) =>
    relay(() =>
      context.rounds(ctx, 'prompts/get', { params: request.params ?? {}, server: up.prefixOf(request.params?.name, 'name') }, async (input, signal) => {
        const name = request.params?.name;
        const owner = typeof name === 'string' ? up.ownerOfName(name) : undefined;
        if (!owner) throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, `Prompt not found: ${JSON.stringify(String(name)).slice(0, 300)}`);
        const args = isObject(request.params?.arguments) ? (request.params.arguments as Record<string, string>) : {};
        return firstValueFrom(owner.client.getPrompt(owner.value, args, { signal, input }));
      }),
    ),
  );
  server.setRequestHandler('completion/complete', (request, ctx) =>
    relay(async () => {
      const ref = request.params?.ref as Record<string, unknown> | undefined;
      const argument = request.params?.argument as { name: string; value: string };
      const given = request.params?.context as { arguments?: Record<string, string> } | undefined;
      let owner;
      let upstreamRef;
      if (ref?.type === 'ref/prompt' && typeof ref.name === 'string') {
        owner = up.ownerOfName(ref.name);
        upstreamRef = owner && { type: 'ref/prompt' as const, name: owner.value };
      } else if (ref?.type === 'ref/resource' && typeof ref.uri === 'string') {
        owner = up.ownerOfUri(ref.uri);
        upstreamRef = owner && { type: 'ref/resource' as const, uri: owner.value };
      }
      if (!owner || !upstreamRef) throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, 'completion/complete names no prompt or resource served here');
      return firstValueFrom(owner.client.complete(upstreamRef, argument, { signal: ctx.mcpReq.signal, ...(given ? { context: given } : {}) }));
    }),
  );
}

/** An upstream server's message, cut to a length a host can show. */
export function bounded(message: string): string {
  return message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}… (${message.length - MAX_MESSAGE_CHARS} more characters)` : message;
}
