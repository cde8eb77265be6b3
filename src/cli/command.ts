/** Where a command reads and writes: injected so tests run commands in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly env: Record<string, string | undefined>;
  readonly cwd: string;
  /** True when stdout is a terminal (live views, progress bars, colour). */
  readonly isTTY: boolean;
  /**
   * Writes a terminal control sequence of cohort's own (moving the cursor up over a live view to
   * redraw it) as it is: stdout and stderr show every control character as a picture instead
   * (see terminal-text.ts). Absent where nothing is a terminal (tests).
   */
  control?(stream: 'stdout' | 'stderr', sequence: string): void;
  /**
   * True when stdin is a terminal, so a person is there to answer a question (an approval); a
   * piped stdin's lines are input, not answers. Absent is false.
   */
  readonly stdinIsTTY?: boolean;
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
