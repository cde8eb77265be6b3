import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * A transport that knows which requests still wait for their answer, so a server can answer them
 * before it closes. The SDK's `close()` aborts every request handler in flight and drops what they
 * would have sent: a client that wrote its calls and then closed stdin (a script piping requests
 * into `cohort mcp`) got no answer to any call still running.
 *
 * @example
 * const transport = new DrainingTransport(new StdioServerTransport());
 * await server.connect(transport);
 * const unanswered = await transport.drain(120_000);
 * await transport.refuse(unanswered, 'the server is closing');
 * await server.close();
 */
export class DrainingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  private readonly waiting = new Set<RequestId>();
  /** Requests answered by {@link refuse}: a handler finishing afterwards sends nothing more. */
  private readonly refused = new Set<RequestId>();
  private idle: (() => void)[] = [];

  constructor(private readonly inner: Transport) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      if (isJSONRPCRequest(message)) this.waiting.add(message.id);
      // A cancelled request gets no answer (MCP's rule), so it no longer waits for one.
      else if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
        const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
        if (typeof id === 'string' || typeof id === 'number') this.answered(id);
      }
      this.onmessage?.(message, extra);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const response = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    const id = response ? message.id : undefined;
    if (id !== undefined && this.refused.has(id)) return;
    // No longer waiting from here: refuse, running meanwhile, must not answer it a second time.
    if (id !== undefined) this.waiting.delete(id);
    await this.inner.send(message, options);
    if (id !== undefined) this.answered(id);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /**
   * Resolves once every request read so far has been answered, or after `timeoutMs`, with the ids
   * of the requests still waiting.
   */
  async drain(timeoutMs: number): Promise<RequestId[]> {
    if (this.waiting.size > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.idle.push(resolve);
        timer = setTimeout(resolve, timeoutMs);
      });
      clearTimeout(timer);
    }
    return [...this.waiting];
  }

  /**
   * Answers each request of `ids` still waiting with a JSON-RPC error saying `why`; their
   * handlers' answers are dropped. One answered meanwhile (while an earlier error was written) is
   * left alone, and each is marked refused before its error is written: a request gets one answer.
   */
  async refuse(ids: readonly RequestId[], why: string): Promise<void> {
    for (const id of ids) {
      if (!this.waiting.has(id)) continue;
      this.refused.add(id);
      this.answered(id);
      await this.inner.send({
        jsonrpc: '2.0',
        id,
        error: { code: ErrorCode.RequestTimeout, message: why },
      });
    }
  }

  private answered(id: RequestId): void {
    this.waiting.delete(id);
    if (this.waiting.size > 0) return;
    const idle = this.idle;
    this.idle = [];
    for (const resolve of idle) resolve();
  }
}
