/** Macros (`/macros`). */
import type {
  MacroCountQuery,
  MacroDetail,
  MacroGetQuery,
  MacroList,
  MacroListQuery,
  MacroPut,
} from '../schemas/hr/people-assist/macros.js';
import type { Verbs } from './core.js';

/** `hr.macros`. */
export function macros(v: Verbs) {
  const path = '/macros';
  return {
    list: v.list<MacroList, MacroListQuery>(path),
    count: v.count<MacroCountQuery>(path),
    retrieve: v.retrieve<MacroDetail, MacroGetQuery>(path),
    upsert: v.upsert<MacroPut, MacroDetail>(path),
  };
}
