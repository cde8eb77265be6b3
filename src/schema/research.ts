import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/** Where a research source came from (research spec, VisitedSource.source_type). */
export const SourceType = lazySchema(() => z.enum(['internal', 'web', 'paper']));
export type SourceType = z.infer<typeof SourceType>;

/** A source a subagent has read: a URL or an internal chunk id, shared so no source is read twice. */
export const VisitedSource = lazySchema(() =>
  z.object({
    identifier: z.string().min(1),
    sourceType: SourceType,
  }),
);
export type VisitedSource = z.infer<typeof VisitedSource>;

/** One passage, page or paper a subagent can cite. */
export const SourceDocument = lazySchema(() =>
  z.object({
    identifier: z.string().min(1),
    sourceType: SourceType,
    title: z.string(),
    /** The text the analysis reads: passage, page text, snippet or abstract. */
    content: z.string(),
    url: z.string().optional(),
    section: z.string().optional(),
    authors: z.array(z.string()).optional(),
    published: z.string().optional(),
    score: z.number().min(0).max(1).optional(),
  }),
);
export type SourceDocument = z.infer<typeof SourceDocument>;

/** What one retrieval or search step found; `reason` says why it is empty or partial. */
export const RetrievalResult = lazySchema(() =>
  z.object({
    sources: z.array(SourceDocument),
    reason: z.string().optional(),
  }),
);
export type RetrievalResult = z.infer<typeof RetrievalResult>;

/** One research task of a run; `id` is the task's namespace. */
export const ResearchTask = lazySchema(() =>
  z.object({
    id: z.string().regex(/^[a-z0-9-]+$/, 'task id must be lowercase letters, digits and dashes'),
    description: z.string().trim().min(1, 'task description must not be empty'),
  }),
);
export type ResearchTask = z.infer<typeof ResearchTask>;

/** A citation of the spec's AnalysisOutput: `index` is the `[n]` of the source in the context. */
export const AnalysisCitation = lazySchema(() =>
  z.object({
    index: z.number().int().min(1),
    /** The claim the source supports, in a few words. */
    claim: z.string().optional(),
  }),
);
export type AnalysisCitation = z.infer<typeof AnalysisCitation>;

/** The analysis model's structured output (research spec, AnalysisOutput). */
export const AnalysisOutput = lazySchema(() =>
  z.object({
    summary: z.string().trim().min(1, 'summary must not be empty'),
    citations: z.array(AnalysisCitation),
    reasoning: z.string(),
    pythonCode: z.string().optional().nullable(),
  }),
);
export type AnalysisOutput = z.infer<typeof AnalysisOutput>;

/** A source a finding cites; `index` is its `[n]` inside that finding's summary. */
export const ExtractedCitation = lazySchema(() =>
  z.object({
    index: z.number().int().min(1),
    identifier: z.string().min(1),
    sourceType: SourceType,
    title: z.string(),
    url: z.string().optional(),
    section: z.string().optional(),
    snippet: z.string().optional(),
  }),
);
export type ExtractedCitation = z.infer<typeof ExtractedCitation>;

/** How a task ended. */
export const TaskStatus = lazySchema(() => z.enum(['done', 'timeout', 'failed']));
export type TaskStatus = z.infer<typeof TaskStatus>;

/** What one research subagent found for its task. */
export const Finding = lazySchema(() =>
  z.object({
    taskId: z.string(),
    task: z.string(),
    summary: z.string(),
    reasoning: z.string(),
    citations: z.array(ExtractedCitation),
    /** `model` when an analysis model wrote it, `extractive` when quoted from sources. */
    mode: z.enum(['model', 'extractive']),
    status: TaskStatus,
    /** Why the finding is empty or degraded (a timeout, a failed source, no model). */
    reason: z.string().optional(),
    codeOutput: z.string().optional(),
  }),
);
export type Finding = z.infer<typeof Finding>;

/** A numbered entry of a report's Sources list. */
export const ReportSource = lazySchema(() =>
  z.object({
    index: z.number().int().min(1),
    identifier: z.string(),
    sourceType: SourceType,
    title: z.string(),
    url: z.string().optional(),
    section: z.string().optional(),
  }),
);
export type ReportSource = z.infer<typeof ReportSource>;

/** The result of a research run: every finding, the numbered sources and the markdown report. */
export const ResearchResult = lazySchema(() =>
  z.object({
    runId: z.string(),
    question: z.string(),
    tasks: z.array(ResearchTask),
    findings: z.array(Finding),
    sources: z.array(ReportSource),
    report: z.string(),
    mode: z.enum(['model', 'extractive']),
  }),
);
export type ResearchResult = z.infer<typeof ResearchResult>;
