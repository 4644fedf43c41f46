/**
 * `atrium/client`: the SDK, kept importable from the server package for compatibility. It is the package
 * `@atrium/client` (packages/client), which the server package bundles; new code installs and imports that package
 * alone, without the server and its dependencies.
 *
 * @packageDocumentation
 */
export * from '@atrium/client';
