import type { ChunkRecord } from '../../schema/index.js';

/**
 * Sections of a course book that list topics rather than explain them: a chapter's learning
 * objectives, the course's learning outcomes, a week of the schedule, a summary, review questions.
 * They name many of a chapter's terms in one place, so a question about a topic matches them as
 * well as the section that answers it ("what joint types are there in URDF?" ranked "Week 6: URDF
 * and Robot Modeling" first and "URDF Structure > Joints" seventh).
 */
const COURSE_META_HEADING =
  /^(?:learning (?:objectives|outcomes|goals)|course learning outcomes|objectives|weekly (?:structure|breakdown|schedule)|week \d+\b.*|summary|chapter summary|key takeaways|review questions|exercises)$/i;

/**
 * Words with which a question asks about the course itself (its weeks, outcomes, assessment), for
 * which those sections are the answer.
 */
const ASKS_ABOUT_THE_COURSE =
  /\b(?:weeks?|weekly|learn\w*|objectives?|outcomes?|course|chapters?|syllabus|modules?|assess\w*|semester|term|stud(?:y|ying)|schedule|summar\w*|goals?|taught|teach\w*|be able to|by the end)\b/i;

/**
 * How much of its score a course-meta section keeps for a question about a topic: enough to
 * stay in the top 5 when it is the only section that names the topic, not enough to push the
 * explaining section out (tune answer sets: 3 more of 551 cite a gold section at 0.8, none
 * fewer; at 0.6 the same three more and two of the ninth set's fewer; dev and paraphrase sets the same).
 */
export const COURSE_META_FACTOR = 0.8;

/**
 * Course-meta headings whose lines name topics without saying anything of them ("Describe the
 * lifecycle node concept and its benefits"): objectives, outcomes, the weekly plan. A summary or
 * key takeaways state facts.
 */
const TOPIC_LIST_HEADING =
  /^(?:learning (?:objectives|outcomes|goals)|course learning outcomes|objectives|weekly (?:structure|breakdown|schedule)|week \d+\b.*)$/i;

/** True when a heading path has a heading of a list of topics ({@link TOPIC_LIST_HEADING}). */
export function listsTopicsOnly(headingPath: readonly string[]): boolean {
  return headingPath.some((heading) => TOPIC_LIST_HEADING.test(heading.trim()));
}

/** True when a heading path has a course-meta heading ({@link COURSE_META_HEADING}) at any level. */
export function isCourseMeta(headingPath: readonly string[]): boolean {
  return headingPath.some((heading) => COURSE_META_HEADING.test(heading.trim()));
}

/**
 * Per-chunk score factors: {@link COURSE_META_FACTOR} for course-meta sections, 1 for the others;
 * undefined when the corpus has none.
 */
export function courseMetaPrior(chunks: readonly ChunkRecord[]): Float64Array | undefined {
  let prior: Float64Array | undefined;
  chunks.forEach((chunk, doc) => {
    if (!isCourseMeta(chunk.headingPath)) return;
    prior ??= new Float64Array(chunks.length).fill(1);
    prior[doc] = COURSE_META_FACTOR;
  });
  return prior;
}

/** True when `query` asks about the course (its weeks, outcomes…): course-meta sections answer it. */
export function asksAboutTheCourse(query: string): boolean {
  return ASKS_ABOUT_THE_COURSE.test(query);
}
