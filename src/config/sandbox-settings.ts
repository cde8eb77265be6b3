import * as z from 'zod';
import { lazySchema } from '../schema/lazy-schema.js';

/** Paths no sandboxed command may read unless the configuration says otherwise (`~` is the home). */
export const DEFAULT_DENY_READ = [
  '~/.ssh',
  '~/.aws',
  '~/.gnupg',
  '~/.azure',
  '~/.kube',
  '~/.docker',
  '~/.config/gcloud',
  '~/.netrc',
  '~/.npmrc',
  '~/.pgpass',
  // Plaintext tokens of everyday tools: git's credential store, the GitHub CLI, package
  // registries (PyPI, crates.io, RubyGems), Terraform Cloud, Vault, Claude Code's own login.
  '~/.git-credentials',
  '~/.config/gh',
  '~/.pypirc',
  '~/.cargo/credentials',
  '~/.cargo/credentials.toml',
  '~/.gem/credentials',
  '~/.terraform.d/credentials.tfrc.json',
  '~/.vault-token',
  '~/.claude/.credentials.json',
  // Histories keep what was typed (`export OPENAI_API_KEY=…`, a psql password); browser profiles
  // keep cookies and saved logins (Chromium's key is a constant without a keyring); keyrings.
  '~/.bash_history',
  '~/.zsh_history',
  '~/.python_history',
  '~/.node_repl_history',
  '~/.psql_history',
  '~/.mysql_history',
  '~/.config/chromium',
  '~/.config/google-chrome',
  '~/.config/BraveSoftware',
  '~/.mozilla',
  '~/.local/share/keyrings',
  '.env',
  // Unreadable to a normal user already; cohort run as root (containers, CI) must not show them.
  '/etc/shadow',
  '/etc/gshadow',
];
/** Most processes (threads included) one sandboxed call may have at once: a fork bomb stops here. */
export const DEFAULT_MAX_PROCESSES = 256;
/** Memory one sandboxed call may use in all (its processes and the files it writes to /tmp), in MB. */
export const DEFAULT_MAX_MEMORY_MB = 4096;
/**
 * Most one sandboxed call may grow its workspace's disk by, in MB (every file it writes there,
 * whatever their sizes): a build's artefacts fit, a loop of 1 GB files does not fill the disk.
 */
export const DEFAULT_MAX_DISK_MB = 8192;
/** Most files (inodes) one sandboxed call may make on its workspace's disk: `npm ci` fits. */
export const DEFAULT_MAX_FILES = 500_000;
/** Address-space limit of code runs (research analysis code), in MB. */
export const DEFAULT_CODE_MEMORY_MB = 1024;

/**
 * The `sandbox` section of the configuration: how bash and code runs are confined.
 * `enabled: false` is the explicit opt-out (bash then runs unconfined, as before the sandbox).
 */
export const SandboxSettings = lazySchema(() =>
  z
    .object({
      /** Confine bash and code runs with bubblewrap. false runs them unconfined (not recommended). */
      enabled: z.boolean().default(true),
      /** bubblewrap's path; found on PATH (and /usr/bin/bwrap) when unset. */
      bwrapPath: z.string().min(1).optional(),
      /** Files and folders never readable inside the sandbox: absolute, `~/…` or workspace-relative. */
      denyRead: z.array(z.string().min(1)).default(DEFAULT_DENY_READ),
      /** Host names a sandboxed command may reach through the filtering proxy (`*.example.org` for subdomains). Empty: no network. */
      allowedHosts: z.array(z.string().min(1)).default([]),
      /**
       * Let allowed hosts resolve to private or loopback addresses (a registry mirror on the LAN).
       * Off: the proxy resolves each allowed name and refuses it when any address is private, so a
       * name rebound to 127.0.0.1 or 10.x (DNS rebinding) reaches nothing.
       */
      allowPrivateAddresses: z.boolean().default(false),
      /** Most processes one call may run at once. */
      maxProcesses: z.number().int().min(8).max(65536).default(DEFAULT_MAX_PROCESSES),
      /** Memory of one whole call (every process, and files in its RAM-backed /tmp), in MB; enforced by a memory cgroup where one can be created. */
      maxMemoryMb: z.number().int().min(64).max(1_048_576).default(DEFAULT_MAX_MEMORY_MB),
      /** How much one call may grow its workspace's disk, in MB (checked every 0.1 s; the call is killed past it). */
      maxDiskMb: z.number().int().min(16).max(1_048_576).default(DEFAULT_MAX_DISK_MB),
      /** How many files (inodes) one call may make on its workspace's disk (the call is killed past it). */
      maxFiles: z.number().int().min(1000).max(1_000_000_000).default(DEFAULT_MAX_FILES),
      /** Address-space limit of a code run, in MB. */
      codeMemoryMb: z.number().int().min(64).default(DEFAULT_CODE_MEMORY_MB),
      /** Python interpreter for code runs; `python3` on PATH when unset. */
      python: z.string().min(1).optional(),
    })
    .prefault({}),
);
export type SandboxSettings = z.infer<typeof SandboxSettings>;
