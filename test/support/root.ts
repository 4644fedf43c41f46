/**
 * The checkout's root, for tests that read its files (docs, sources, package.json) or run its commands. The tests
 * run from their compiled copy in `.build/` (docs/development.md, "Tests"), so the root is the nearest folder above
 * with a `package.json`, not at a fixed depth: the app's own `PACKAGE_ROOT`, found the same way.
 */
export { PACKAGE_ROOT as ROOT } from '../../src/platform/build-info.js';
