import { AgentRegistry, loadAgentDir, type Agent } from '../agents/index.js';
import { packagePath } from '../config/index.js';
import { CohortError } from '../errors/index.js';

/**
 * The folder of the built-in book agents (`agents/` at the package root, found as in
 * `packageRoot`: the same from the sources, the compiled modules and the bundle).
 *
 * @example
 * loadAgentDir(defaultAgentsDir());
 */
export function defaultAgentsDir(): string {
  return packagePath('agents') + '/';
}

/**
 * Loads agent files into a registry: the built-in book agents when `dirs` is empty, otherwise the
 * agents of every folder in `dirs` (names must be unique across folders). The fallback agent is the
 * one marked `fallback: true`, else `book`.
 *
 * @example
 * const registry = createBookRegistry(config.agentDirs);
 * const router = createRouter(registry, config.routing);
 */
export function createBookRegistry(dirs: readonly string[] = []): AgentRegistry {
  const folders = dirs.length > 0 ? dirs : [defaultAgentsDir()];
  const agents: Agent[] = folders.flatMap((dir) => loadAgentDir(dir));
  if (agents.length === 0) {
    throw new CohortError(
      'invalid_input',
      `No agent files (*.md) found in ${folders.join(', ')}. Add agent markdown files or leave agentDirs empty to use the built-in agents.`,
      { field: 'agentDirs' },
    );
  }
  return new AgentRegistry(agents);
}
