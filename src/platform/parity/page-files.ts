/** Where the parity page and its data live, from the package root (`npm run parity` writes them; the package ships `docs/`). */
export const PARITY_MARKDOWN = 'docs/parity.md';
export const PARITY_JSON = 'docs/parity.json';
