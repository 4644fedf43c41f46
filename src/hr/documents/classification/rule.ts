import type { GuessedType, TypeLabels } from './repository.js';

/** Guesses listed at most (reference §3c.8). */
export const MAX_GUESSES = 5;
/** Shorter words of a label are no keyword (`of`, `HR`, `ID`). */
export const MIN_KEYWORD_LENGTH = 3;

/** Lower case, without accents (`Fiche de paie` and `FICHE DE PAIE` and `fiché` fold alike). */
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a text, folded: runs of letters and digits. */
export function wordsOf(text: string): Set<string> {
  return new Set(
    fold(text)
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 0),
  );
}

/** A type's keywords: the distinct words of its labels of at least MIN_KEYWORD_LENGTH characters. */
export function keywordsOf(type: TypeLabels): string[] {
  const out = new Set<string>();
  for (const label of type.labels) for (const w of wordsOf(label)) if (w.length >= MIN_KEYWORD_LENGTH) out.add(w);
  return [...out];
}

/**
 * The prediction (docs/hr-api.md, "Document classification"): each type's probability is the share of its
 * keywords found among the words of the document's text (4 decimals); the types with a probability above 0,
 * highest first, then by id, at most MAX_GUESSES of them.
 */
export function predict(text: string, types: TypeLabels[]): GuessedType[] {
  const words = wordsOf(text);
  const guesses: GuessedType[] = [];
  for (const type of types) {
    const keywords = keywordsOf(type);
    if (keywords.length === 0) continue;
    const found = keywords.filter((k) => words.has(k)).length;
    if (found === 0) continue;
    guesses.push({ documentTypeId: type.id, probability: Math.round((found / keywords.length) * 10_000) / 10_000 });
  }
  guesses.sort((a, b) =>
    b.probability !== a.probability
      ? b.probability - a.probability
      : a.documentTypeId < b.documentTypeId
        ? -1
        : a.documentTypeId > b.documentTypeId
          ? 1
          : 0,
  );
  return guesses.slice(0, MAX_GUESSES);
}
