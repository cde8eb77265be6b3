/**
 * The OpenTelemetry GenAI semantic-convention attribute names cohort sets on model and tool
 * spans (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/), written once here.
 */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  usageInput: 'gen_ai.usage.input_tokens',
  usageOutput: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  agentName: 'gen_ai.agent.name',
} as const;
