// The low-level SDK server, as far as the gateway uses it. Its own types are
// generic over every method; the gateway registers by name and shapes results itself.
export interface SdkServer {
  setRequestHandler(method: string, handler: (request: { params?: Record<string, unknown> }, ctx: SdkContext) => Promise<unknown>): void;
  getClientCapabilities(): Record<string, unknown> | undefined;
  sendToolListChanged(): Promise<void>;
  sendPromptListChanged(): Promise<void>;
  sendResourceListChanged(): Promise<void>;
  sendResourceUpdated(params: { uri: string }): Promise<void>;
  sendLoggingMessage(params: { level: string; logger?: string; data: unknown }): Promise<void>;
  close(): Promise<void>;
  onclose?: () => void;
}

export interface SdkContext {
  mcpReq: {
    _meta?: Record<string, unknown>;
    envelope?: Record<string, unknown>;
    inputResponses?: Record<string, unknown>;
    requestState: () => unknown;
    signal: AbortSignal;
    notify: (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;
  };
}
