import { Presets, SingleBar } from 'cli-progress';

/** A progress bar of a long command, drawn by cli-progress on standard error. */
export interface Progress {
  start(total: number): void;
  tick(): void;
  stop(): void;
}

/**
 * A bar on standard error when it is a terminal and the command prints words (not `--json`); otherwise nothing, so
 * a pipe, a log file or a JSON reader never sees escape codes. Redrawn at most ten times a second.
 */
export function progressBar(
  label: string,
  json: boolean,
  stream: NodeJS.WriteStream = process.stderr,
): Progress | undefined {
  if (json || !stream.isTTY) return undefined;
  const bar = new SingleBar(
    {
      stream,
      format: `${label} [{bar}] {value}/{total} {percentage}% | {eta_formatted} left`,
      fps: 10,
      hideCursor: true,
      clearOnComplete: false,
    },
    Presets.shades_classic,
  );
  return {
    start: (total) => bar.start(total, 0),
    tick: () => bar.increment(),
    stop: () => bar.stop(),
  };
}
