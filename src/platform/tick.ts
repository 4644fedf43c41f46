/**
 * Bounded work per turn of the event loop (docs/RELIABILITY.md, "Bounded work per tick"). better-sqlite3 runs every
 * statement synchronously and an `await` that resolves at once is a microtask, so a loop of statements or of parsed
 * records never lets the loop run by itself: long work yields with a macrotask (`setImmediate`), after which timers,
 * sockets and other requests get their turn.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Lets the event loop run (timers, I/O, other requests) before the caller goes on. */
export function yieldToLoop(): Promise<void> {
  return nextTurn();
}

/**
 * Counts units of work (records, cells, rows) and yields to the event loop each time `perTurn` of them have been
 * spent: a count, not a clock, so where a long task yields does not depend on the machine's speed.
 */
export class TurnBudget {
  private spent = 0;

  constructor(private readonly perTurn: number) {}

  /** Adds `units` of work done; yields once they reach the turn's budget. Answers whether it yielded. */
  async spend(units = 1): Promise<boolean> {
    this.spent += units;
    if (this.spent < this.perTurn) return false;
    this.spent = 0;
    await nextTurn();
    return true;
  }
}
