/** Where a command reads and writes: injected so tests run commands in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly env: Record<string, string | undefined>;
  readonly cwd: string;
  /** True when stdout is a terminal (live views, progress bars, colour). */
  readonly isTTY: boolean;
  /** Lines typed by the user (interactive `cohort chat`); undefined when stdin is not readable. */
  readonly stdin?: AsyncIterable<string>;
}

/** One `cohort <name>` subcommand. Returns the process exit code. */
export interface CliCommand {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  run(args: string[], io: CliIo): Promise<number>;
}
