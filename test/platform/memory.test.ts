/**
 * `collectGarbage` (src/platform/memory.ts): `atrium serve` collects the garbage its schema warm-up made. The test
 * makes garbage that has reached the old generation (kept until the allocation ends, so that scavenges promote it),
 * drops it, and checks that one call frees it. This process runs without `--expose-gc`, as the server does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectGarbage } from '../../src/platform/memory.js';

describe('collectGarbage', () => {
  it('collects garbage in the old generation now, in a process started without --expose-gc', () => {
    assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'the test runs as the server does');
    const MB = 2 ** 20;
    let kept: number[][] | undefined = [];
    for (let i = 0; i < 400; i++) kept.push(Array.from({ length: 16_384 }, (_, k) => k + i));
    const before = process.memoryUsage().heapUsed;
    kept = undefined;
    collectGarbage();
    const after = process.memoryUsage().heapUsed;
    assert.ok(before - after > 40 * MB, `heap used ${Math.round(before / MB)} MB → ${Math.round(after / MB)} MB`);
    collectGarbage();
    assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'nothing new on the global object');
  });
});
