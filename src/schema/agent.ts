import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/** Agent names: lowercase letters, digits and underscores (data-model spec, BaseAgent). */
export const AGENT_NAME_PATTERN = /^[a-z0-9_]+$/;
/** A prompt "references book content guidelines" when it says where answers must come from. */
export const GROUNDING_PATTERN =
  /\b(book|textbook|retrieved|sources?|knowledge base|provided (content|context|passages))\b/i;

/** The book search every book agent calls (`search_book_content`). */
export const BOOK_SEARCH_TOOL = 'search_book_content';

/** How an agent prefers to answer when it quotes passages without a model. */
export const AnswerStyle = lazySchema(() =>
  z.enum(['definition', 'specs', 'explanation', 'guidance', 'general']),
);
export type AnswerStyle = z.infer<typeof AnswerStyle>;

/** A validated agent spec (the spec's BaseAgent, as data). */
export const AgentSpec = lazySchema(() =>
  z.object({
    name: z
      .string()
      .regex(AGENT_NAME_PATTERN, 'name must be lowercase letters, digits and underscores only'),
    description: z.string().trim().min(1, 'description must not be empty'),
    /**
     * The agent's name as a reader sees it ("Course modules" for `module_info`): the header of its
     * part of a merged answer. Its `name`, underscores read as spaces, when not given.
     */
    title: z.string().trim().min(1, 'title must not be empty').optional(),
    domain: z.string().trim().min(1, 'domain must not be empty'),
    keywords: z.array(z.string().trim().min(1)).min(3, 'keywords must contain at least 3 items'),
    systemPrompt: z
      .string()
      .trim()
      .min(1, 'system prompt must not be empty')
      .refine((prompt) => GROUNDING_PATTERN.test(prompt), {
        message:
          'system prompt must tell the agent to keep to the book content (mention the book, its sources or retrieved passages)',
      }),
    /**
     * Tool names the agent may call: the book search, and MCP tools (`mcp__<server>`,
     * `mcp__<server>__<tool>`, `mcp__*`). Another name offers nothing: a misspelt
     * `search_book` left the agent answering with no search to call.
     */
    tools: z
      .array(
        z.string().refine((name) => name === BOOK_SEARCH_TOOL || /^mcp__\S+$/.test(name), {
          error: (issue) =>
            `"${String(issue.input)}" is no tool an agent can call: name ${BOOK_SEARCH_TOOL} or an MCP tool (mcp__<server> or mcp__<server>__<tool>)`,
        }),
      )
      .default([BOOK_SEARCH_TOOL]),
    /** `fast`, `full`, or a model id. */
    model: z.string().default('full'),
    /** Example user questions: training data for the intent classifier. */
    examples: z.array(z.string().trim().min(1)).default([]),
    /** Intents (definition, explanation, specs, guidance, troubleshooting...) this agent serves. */
    intents: z.array(z.string().trim().min(1)).default([]),
    /** How the agent prefers to quote passages in extractive mode. */
    answerStyle: AnswerStyle.default('general'),
    /**
     * Other names users give this agent's subject ("final project" for a book's "capstone"): after
     * routing, an answer reads one the book never writes as the agent's `domain`, for retrieval and
     * sentence choice.
     */
    aliases: z
      .array(
        z
          .string()
          .trim()
          .regex(
            /^[\p{L}\p{N}]+(?:[\s-]+[\p{L}\p{N}]+)*$/u,
            'each alias must be words of letters and digits, apart by spaces or hyphens',
          ),
      )
      .default([]),
    /** Restrict retrieval to this content domain; unset searches the whole book. */
    retrievalDomain: z.string().optional(),
    /** True for the registry's fallback agent. */
    fallback: z.boolean().default(false),
  }),
);
export type AgentSpec = z.infer<typeof AgentSpec>;
export type AgentSpecInput = z.input<typeof AgentSpec>;

/** Summary of an agent for listings (`/agents`, `cohort agents`). */
export const AgentSummary = lazySchema(() =>
  z.object({
    name: z.string(),
    domain: z.string(),
    description: z.string(),
    keywords: z.array(z.string()),
  }),
);
export type AgentSummary = z.infer<typeof AgentSummary>;

/** Response of `/agents`. */
export const AgentInfoResponse = lazySchema(() =>
  z.object({
    agents: z.array(AgentSummary),
    total: z.number().int().min(0),
  }),
);
export type AgentInfoResponse = z.infer<typeof AgentInfoResponse>;
