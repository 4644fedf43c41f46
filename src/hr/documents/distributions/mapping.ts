/**
 * How a distribution's PDF maps to employees (docs/hr-api.md, "Distributions"), from the text of its pages:
 *
 * - a page that declares an identifier (`ID:` followed by it, as in `Employee ID: E0042`) belongs to the employee
 *   with that `external_id`, or, when no employee has it, to an error row `MISSING_USER`;
 * - otherwise a page belongs to the first employee whose `external_id` appears on it as a whole word (a run of
 *   characters between white space, without the punctuation around it);
 * - otherwise it follows the page before it (the second page of a payslip); a page before any identifier goes to
 *   an error row `MISSING_IDENTIFIER`.
 *
 * Each employee's pages, wherever they are in the file, make one row (one document); so do each unknown
 * identifier's. Rows are in the order of their first page.
 */

/** The identifiers read on each page. */
export interface ScannedPages {
  /** By page: the identifier the page declares (`ID: …`), or null. */
  declared: (string | null)[];
  /** By page: its words, in reading order (at most `MAX_WORDS`). */
  words: string[][];
}

/** Words of one page considered at most (a page of text has a few hundred). */
const MAX_WORDS = 5_000;
/** The longest word that can be an identifier (`external_id` is at most 255 characters). */
const MAX_WORD = 255;

const PUNCTUATION = /^[.,;:!?()[\]{}"'«»<>]+|[.,;:!?()[\]{}"'«»<>]+$/gu;
const DECLARED = /(?:^|[^\p{L}\p{N}_])ID\s*:\s*(\S+)/iu;

function clean(word: string): string {
  return word.replace(PUNCTUATION, '');
}

/** The identifiers of each page's text. */
export function scanPages(texts: readonly string[]): ScannedPages {
  const declared: (string | null)[] = [];
  const words: string[][] = [];
  for (const text of texts) {
    const match = DECLARED.exec(text);
    const id = match?.[1] ? clean(match[1]) : '';
    declared.push(id !== '' && id.length <= MAX_WORD ? id : null);
    const page: string[] = [];
    for (const raw of text.split(/\s+/u)) {
      const word = clean(raw);
      if (word !== '' && word.length <= MAX_WORD) page.push(word);
      if (page.length >= MAX_WORDS) break;
    }
    words.push(page);
  }
  return { declared, words };
}

/** Every word that could name an employee: what to look up. */
export function candidates(scan: ScannedPages): string[] {
  const all = new Set<string>();
  for (const id of scan.declared) if (id !== null) all.add(id);
  for (const page of scan.words) for (const word of page) all.add(word);
  return [...all];
}

/** A row of the report, before anything is delivered. */
export interface PlannedRow {
  position: number;
  externalId: string | null;
  employeeId: string | null;
  /** 1-based. */
  pages: number[];
  error: { code: 'MISSING_USER' | 'MISSING_IDENTIFIER'; message: string } | null;
}

/** Assigns each page to a row, given the employees found (external id → employee id). */
export function assignPages(scan: ScannedPages, employees: ReadonlyMap<string, string>): PlannedRow[] {
  const rows = new Map<string, PlannedRow>();
  const rowOf = (key: string, make: () => Omit<PlannedRow, 'position' | 'pages'>): PlannedRow => {
    let row = rows.get(key);
    if (!row) {
      row = { position: rows.size, pages: [], ...make() };
      rows.set(key, row);
    }
    return row;
  };
  let current: PlannedRow | undefined;
  scan.words.forEach((words, i) => {
    const declared = scan.declared[i] ?? null;
    let owner: PlannedRow | undefined;
    if (declared !== null) {
      const employeeId = employees.get(declared);
      owner = employeeId
        ? rowOf(`e:${employeeId}`, () => ({ externalId: declared, employeeId, error: null }))
        : rowOf(`u:${declared}`, () => ({
            externalId: declared,
            employeeId: null,
            error: { code: 'MISSING_USER', message: 'No employee has this identifier (external_id).' },
          }));
    } else {
      const known = words.find((w) => employees.has(w));
      if (known !== undefined) {
        const employeeId = employees.get(known) as string;
        owner = rowOf(`e:${employeeId}`, () => ({ externalId: known, employeeId, error: null }));
      } else {
        owner =
          current ??
          rowOf('none', () => ({
            externalId: null,
            employeeId: null,
            error: { code: 'MISSING_IDENTIFIER', message: 'No employee identifier before these pages.' },
          }));
      }
    }
    owner.pages.push(i + 1);
    current = owner;
  });
  return [...rows.values()];
}

/** Page numbers as ranges: `1-3,5`. */
export function pageRanges(pages: readonly number[]): string {
  const sorted = [...pages].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] as number) + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
