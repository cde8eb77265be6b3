export {
  parseSkillFile,
  Skill,
  SkillFrontmatter,
  SkillSource,
  SKILL_FILE,
  SKILL_NAME_PATTERN,
  MAX_DESCRIPTION_CHARS,
} from './skill-file.js';
export {
  loadSkills,
  skillSearchPaths,
  type SkillCatalog,
  type SkillProblem,
  type ShadowedSkill,
  type SkillSearchPath,
} from './skill-loader.js';
export {
  listSkillResources,
  readSkillResource,
  SKILL_RESOURCE_FOLDERS,
} from './skill-resources.js';
export {
  activateSkill,
  scoreSkills,
  availableSkillsBlock,
  skillPrompt,
  allowedToolsFor,
  skillPermits,
  SKILL_ACTIVATION_THRESHOLD,
  type SkillActivation,
  type SkillScore,
} from './skill-activation.js';
