import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** What the refusals are logged through (a pino logger fits). */
export interface RefusalLog {
  warn(fields: object, message: string): void;
}

/** The addresses a refusal line names, the most refused first; the rest are counted only. */
const ADDRESSES_SHOWN = 10;

/**
 * Refused connections, counted and logged once a second as one line (`connections refused`, with the counts by
 * cause and by address), never one line per connection: a flood of them costs one line a second.
 */
export class RefusedConnections {
  private tooManyOpen = 0;
  private tooManyFromAddress = 0;
  private readonly byAddress = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: RefusalLog,
    private readonly caps: { maxConnections: number; maxConnectionsPerAddress: number },
    /** Runs `flush` a second later (a test passes its own). */
    private readonly later: (flush: () => void) => NodeJS.Timeout = (flush) => setTimeout(flush, 1000).unref(),
  ) {}

  /** Counts one refusal: `global` past `ATRIUM_MAX_CONNECTIONS`, `address` past the per-address cap. */
  refused(cause: 'global' | 'address', address: string | undefined): void {
    if (cause === 'global') this.tooManyOpen++;
    else this.tooManyFromAddress++;
    const key = address ?? 'unknown';
    this.byAddress.set(key, (this.byAddress.get(key) ?? 0) + 1);
    this.timer ??= this.later(() => this.flush());
  }

  /** Writes the line of the refusals counted since the last one, if any. */
  flush(): void {
    this.timer = undefined;
    const count = this.tooManyOpen + this.tooManyFromAddress;
    if (count === 0) return;
    const addresses = Object.fromEntries([...this.byAddress].sort((a, b) => b[1] - a[1]).slice(0, ADDRESSES_SHOWN));
    this.log.warn(
      {
        refused: count,
        tooManyOpen: this.tooManyOpen,
        tooManyFromAddress: this.tooManyFromAddress,
        addresses,
        maxConnections: this.caps.maxConnections,
        maxConnectionsPerAddress: this.caps.maxConnectionsPerAddress,
      },
      'connections refused',
    );
    this.tooManyOpen = 0;
    this.tooManyFromAddress = 0;
    this.byAddress.clear();
  }

  /** Stops the pending line's timer, writing it now (the server is closing). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.flush();
  }
}

/**
 * Caps the open connections of one HTTP server: past `maxConnections` in all Node closes a new one at once (its
 * `drop` event); past `maxConnectionsPerAddress` from one address (0: no cap) this closes it at once, before it is
 * read, while other addresses are still served. Both are counted by `refusals`.
 */
export function capConnections(
  server: Server,
  caps: { maxConnections: number; maxConnectionsPerAddress: number },
  refusals: RefusedConnections,
): void {
  server.maxConnections = caps.maxConnections;
  server.on('drop', (data: { remoteAddress?: string } | undefined) => refusals.refused('global', data?.remoteAddress));
  const perAddress = caps.maxConnectionsPerAddress;
  if (perAddress <= 0) return;
  const open = new Map<string, number>();
  // Before the HTTP server's own listener: a refused socket is destroyed before anything reads from it.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= perAddress) {
      refusals.refused('address', address);
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
