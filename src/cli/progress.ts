import { Presets, SingleBar } from 'cli-progress';
import { io } from './io.js';

/** The progress of a long command: one phase after another (`employees`, `documents`…), each with its size. */
export interface Progress {
  /** Starts a phase of `total` steps (ending the previous one). */
  start(label: string, total: number): void;
  tick(): void;
  /** Sets how many steps of the current phase are done. */
  update(done: number): void;
  /** Ends the current phase. */
  stop(): void;
}

/**
 * Bars on standard error, one per phase, drawn by cli-progress, when it is a terminal and the command prints words
 * (not `--json`); otherwise nothing, so a pipe, a log file or a JSON reader never sees escape codes. Redrawn at
 * most ten times a second.
 */
export function progressBar(
  json: boolean,
  stream: NodeJS.WriteStream = io().stderr as NodeJS.WriteStream,
): Progress | undefined {
  if (json || !stream.isTTY) return undefined;
  let bar: SingleBar | undefined;
  const stop = () => {
    bar?.stop();
    bar = undefined;
  };
  return {
    start(label, total) {
      stop();
      bar = new SingleBar(
        {
          stream,
          format: `${label.padEnd(12)} [{bar}] {value}/{total} {percentage}% | {eta_formatted} left`,
          fps: 10,
          hideCursor: true,
          clearOnComplete: false,
        },
        Presets.shades_classic,
      );
      bar.start(total, 0);
    },
    tick: () => bar?.increment(),
    update: (done) => bar?.update(done),
    stop,
  };
}
