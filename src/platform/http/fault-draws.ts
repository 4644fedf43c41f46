/**
 * The random draws of the fault rules (docs/admin.md, "Faults"): the probability draw and the latency draw of a
 * call. A rule with a `seed` takes them from (seed, n, k): n is the call's index among the calls the rule matched
 * (0, 1, 2…, counted in the database, so shared by every process), k the draw within the call. The same seed and
 * the same calls give the same draws, in any process.
 */

/** A latency effect, in its three forms (`distribution` left out: fixed). */
export type LatencyEffect =
  | { type: 'latency'; distribution?: 'fixed'; latency_ms: number }
  | { type: 'latency'; distribution: 'uniform'; min_ms: number; max_ms: number }
  | { type: 'latency'; distribution: 'log_normal'; median_ms: number; sigma: number };

/** The most any latency draw waits (a log-normal draw above it is cut to it). */
export const MAX_LATENCY_MS = 60_000;

/** The k-th draw of a call: k 0 is the probability's, 1 and 2 the latency's. */
export type Draw = (k: number) => number;

/** A 32-bit finaliser (lowbias32): every input bit moves about half the output bits. */
function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The draw k of the n-th matched call of a rule seeded with `seed` (an integer 0..2^32-1): a number in [0, 1). */
export function seededUniform(seed: number, n: number, k: number): number {
  let h = mix32(seed ^ 0x9e3779b9);
  h = mix32(h ^ (n >>> 0));
  h = mix32(h ^ Math.floor(n / 2 ** 32));
  h = mix32(h ^ Math.imul(k + 1, 0x85ebca6b));
  return h / 2 ** 32;
}

/** The draws of the n-th matched call of a seeded rule. */
export const seededDraw =
  (seed: number, n: number): Draw =>
  (k) =>
    seededUniform(seed, n, k);

/** The draws of an unseeded rule. */
export const randomDraw =
  (random: () => number): Draw =>
  () =>
    random();

/** The delay (whole ms) a latency effect draws: uniform within [min, max], log-normal around its median. */
export function latencyOf(effect: LatencyEffect, draw: Draw): number {
  switch (effect.distribution) {
    case 'uniform':
      return (
        effect.min_ms +
        Math.min(effect.max_ms - effect.min_ms, Math.floor(draw(1) * (effect.max_ms - effect.min_ms + 1)))
      );
    case 'log_normal': {
      // Box–Muller: a standard normal from two uniforms (1 - u is in (0, 1], so the log is finite).
      const z = Math.sqrt(-2 * Math.log(1 - draw(1))) * Math.cos(2 * Math.PI * draw(2));
      return Math.min(MAX_LATENCY_MS, Math.max(0, Math.round(effect.median_ms * Math.exp(effect.sigma * z))));
    }
    default:
      return effect.latency_ms;
  }
}
