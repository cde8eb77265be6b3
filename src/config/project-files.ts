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
   * What the sandbox puts at the name, for the command's time, while it is absent, mounted
   * read-only so that the name cannot be created: a file holding `{}` (no settings) for a settings
   * file, an empty folder for a folder. An empty `.git` folder is passed over by git as no
   * repository (an empty `.git` file would break every git command run in the folder meanwhile,
   * a parent repository's included); an empty `.cohort` is a data folder the next cohort fills (a
   * `.cohort` file left by a cohort killed mid-command stopped every later start there: "The data
   * folder ".cohort" is not a folder").
   */
  placeholder: 'file' | 'folder';
  /**
   * Whether the name is protected at any depth, not only at the top: a cohort (or git) started in
   * a subfolder reads that subfolder's copy. Not `skills`: a `src/skills/` folder is source code.
   */
  anyDepth: boolean;
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
    placeholder: 'folder',
    anyDepth: true,
  },
  {
    name: CONFIG_FILE,
    why: "it is cohort's configuration (sandbox, permissions, MCP servers), read on your machine at the next start",
    placeholder: 'file',
    anyDepth: true,
  },
  {
    name: MCP_JSON_FILE,
    why: 'cohort starts the MCP servers it names as commands on your machine, outside the sandbox',
    placeholder: 'file',
    anyDepth: true,
  },
  {
    name: '.claude',
    why: "it holds the project's settings (permissions, hooks), skills and agents, which cohort and Claude Code trust",
    placeholder: 'folder',
    anyDepth: true,
  },
  {
    name: DEFAULT_DATA_DIR,
    why: "it holds cohort's project skills and agents and its data folder",
    placeholder: 'folder',
    anyDepth: true,
  },
  {
    name: 'skills',
    why: "it holds the project's skills, whose allowed-tools run without asking",
    placeholder: 'folder',
    anyDepth: false,
  },
];

/**
 * Where the protected entry a path falls under is: the path up to and including the entry's name
 * (`pkg/.claude` for `pkg/.claude/settings.json`), undefined when the path is free to write.
 *
 * @example
 * protectedLocationOf('pkg/.claude/settings.json'); // 'pkg/.claude'
 */
export function protectedLocationOf(relativePath: string): string | undefined {
  const entry = protectedEntryOf(relativePath);
  if (!entry) return undefined;
  const parts = relativePath.split('/');
  const at = parts.findIndex((part) => part.toLowerCase() === entry.name.toLowerCase());
  return parts.slice(0, at + 1).join('/');
}

/**
 * The protected entry a workspace path falls under (the entry itself or anything inside it), from
 * the path relative to the workspace root with `/` separators (a resolved path: symlinks followed,
 * no `.` or `..`); undefined when it is free to write. Every part of the path is looked at, since
 * a cohort or git started in a subfolder trusts that subfolder's copy (`pkg/.mcp.json`,
 * `pkg/.git/config`); `skills` counts only at the top. Names compare without letter case: on a
 * case-insensitive file system (macOS, a casefold folder) `.MCP.json` is `.mcp.json`.
 *
 * @example
 * protectedEntryOf('.claude/settings.local.json')?.name; // '.claude'
 * protectedEntryOf('pkg/.mcp.json')?.name; // '.mcp.json'
 * protectedEntryOf('src/skills/loader.ts'); // undefined: skills counts only at the top
 */
export function protectedEntryOf(relativePath: string): ProtectedProjectEntry | undefined {
  const parts = relativePath.toLowerCase().split('/');
  return PROTECTED_PROJECT_ENTRIES.find((entry) => {
    const name = entry.name.toLowerCase();
    return entry.anyDepth ? parts.includes(name) : parts[0] === name;
  });
}
