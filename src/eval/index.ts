export {
  evaluateRetrieval,
  headingIsGold,
  isGoldHit,
  parseGold,
  type RetrievalReport,
  type QueryResult,
} from './evaluate-retrieval.js';
export { evaluateRetrievalOnCorpus, type CorpusRetrievalReport } from './evaluate-on-corpus.js';
export { loadRetrievalCases, parseRetrievalCases, RetrievalCase } from './retrieval-cases.js';
export {
  evaluateAnswers,
  citationIsGold,
  scoreAnswer,
  type AnswerReport,
  type AnswerFigures,
  type AnswerCaseResult,
} from './evaluate-answers.js';
export { evaluateAnswersOnCorpus, type CorpusAnswerReport } from './evaluate-answers-on-corpus.js';
export { formatAnswerReport } from './format-answer-report.js';
export { goldNotFound } from './gold-not-found.js';
export { unknownGoldLines } from './unknown-gold-lines.js';
export { formatRoutingReport } from './format-routing-report.js';
export {
  evaluateSkills,
  formatSkillReport,
  loadSkillCases,
  SkillCase,
  NO_SKILL,
  type SkillReport,
  type SkillAccuracy,
} from './evaluate-skills.js';
export { loadRoutingSet, parseRoutingSet } from './routing-set.js';
export { casesOfSplit, parseSplit, SPLITS, type Split } from './split.js';
