/**
 * Lists of the HR API: one declaration per list, one way to read its page parameters, one route helper.
 *
 * A resource declares its list once in its schemas (`declareList`): the name that binds its cursors, and for a
 * sortable list the fields `sort` takes and the default sort. Its repository declares, next to its table, what
 * each of those fields orders by (`ListOrder` in `platform/db/listing.ts`, typed by the same fields). A request's
 * `per_page`, `cursor`, `page` and `sort` become one `PageRequest` here; the cursor's keys are checked against the
 * order when the page is read, so a cursor's shape follows from the declaration and nothing else.
 */
export interface ListDeclaration<F extends string = never> {
  /** Binds cursors: a cursor of one list (or of one sort of it) is unknown to another list or sort. */
  name: string;
  /** The fields `sort` takes, for a sortable list. */
  sortFields: readonly F[];
  /** The sort without a `sort` parameter (`-updated_at`); empty for a list in a fixed order. */
  defaultSort: string;
}

/** A list in a fixed order (creation order, or an order its repository declares). */
export function declareList(name: string): ListDeclaration {
  return { name, sortFields: [], defaultSort: '' };
}

/** A list whose order the caller chooses with `sort` among `fields`. */
export function declareSortedList<F extends string>(
  name: string,
  fields: readonly F[],
  defaultSort: string,
): ListDeclaration<F> {
  return { name, sortFields: fields, defaultSort };
}
