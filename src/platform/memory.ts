/**
 * A full garbage collection on demand, for the one moment a server knows it has just made a lot of garbage and is
 * about to wait: right after compiling every route's schemas (`atrium serve`'s warm-up). Compiling them leaves
 * about 60 MB of garbage in V8's old generation, which V8 would otherwise keep until its first full collection
 * under load (docs/PERFORMANCE.md, "Memory").
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | undefined;

/**
 * Collects the whole heap now. Node gives `gc` only to a process started with `--expose-gc`; without it, the flag
 * is set here and the function taken from a new context, where V8 installs it. Nothing else changes: the flag only
 * exposes the function.
 */
export function collectGarbage(): void {
  if (gc === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === 'function') gc = exposed;
    else {
      v8.setFlagsFromString('--expose-gc');
      gc = vm.runInNewContext('gc') as () => void;
    }
  }
  gc();
}
