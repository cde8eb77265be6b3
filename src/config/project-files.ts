import { CONFIG_FILE, DEFAULT_DATA_DIR, MCP_JSON_FILE } from './config.js';

/**
 * An entry at the top of a project folder that cohort (or git) trusts when it starts there: what
 * it holds runs on the host, outside the sandbox, or grants tools the right to run without asking.
 */
export interface ProtectedProjectEntry {
  /** The name at the top of the workspace (`.mcp.json`, `.claude`). */
  name: string;
  /** Why a model may not write it, in words for the message it reads. */
  why: string;
  /**
   * Whether the sandbox keeps the name from being created while it is absent (with an empty
   * placeholder mounted over it for the command's time). Not for `.git`: an empty `.git` file, even
   * for a moment, breaks every git command the user runs in the folder meanwhile.
   */
  guardAbsent: boolean;
}

/**
 * The workspace entries the file tools refuse to write and the sandbox mounts read-only. Each is
 * read by the next cohort (or git) started in the folder, on the host: a model that could write one
 * would leave the sandbox. The list is every file cohort reads its own settings from inside a
 * project: `cohort.config.json` (sandbox, permissions, MCP servers), `.mcp.json` (MCP servers,
 * started as commands), `.claude/` (Claude Code's `settings.json` and `settings.local.json`,
 * whose permissions cohort reads, with their hooks, and the project's `skills/` and `agents/`),
 * `.cohort/` (cohort's own `skills/` and `agents/`, and its default data folder) and `skills/` (a
 * skill's `allowed-tools` run without asking).
 */
export const PROTECTED_PROJECT_ENTRIES: readonly ProtectedProjectEntry[] = [
  {
    name: '.git',
    why: "git's hooks and config run on your machine the next time you run git",
    guardAbsent: false,
  },
  {
    name: CONFIG_FILE,
    why: "it is cohort's configuration (sandbox, permissions, MCP servers), read on your machine at the next start",
    guardAbsent: true,
  },
  {
    name: MCP_JSON_FILE,
    why: 'cohort starts the MCP servers it names as commands on your machine, outside the sandbox',
    guardAbsent: true,
  },
  {
    name: '.claude',
    why: "it holds the project's settings (permissions, hooks), skills and agents, which cohort and Claude Code trust",
    guardAbsent: true,
  },
  {
    name: DEFAULT_DATA_DIR,
    why: "it holds cohort's project skills and agents and its data folder",
    guardAbsent: true,
  },
  {
    name: 'skills',
    why: "it holds the project's skills, whose allowed-tools run without asking",
    guardAbsent: true,
  },
];

/**
 * The protected entry a workspace path falls under (the entry itself or anything inside it), from
 * the path relative to the workspace root with `/` separators; undefined when it is free to write.
 *
 * @example
 * protectedEntryOf('.claude/settings.local.json')?.name; // '.claude'
 * protectedEntryOf('src/skills/loader.ts'); // undefined: only the top of the workspace counts
 */
export function protectedEntryOf(relativePath: string): ProtectedProjectEntry | undefined {
  const top = relativePath.split('/')[0];
  return PROTECTED_PROJECT_ENTRIES.find((entry) => entry.name === top);
}
