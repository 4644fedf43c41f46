/** Macros (`/macros`). */
import type { Static } from '@sinclair/typebox';
import type {
  MacroCountQuery,
  MacroDetail,
  MacroGetQuery,
  MacroList,
  MacroListQuery,
  MacroPut,
} from '../../hr/people-assist/macros/schemas.js';
import type { Verbs } from './core.js';

/** `hr.macros`. */
export function macros(v: Verbs) {
  const path = '/macros';
  return {
    list: v.list<MacroList, MacroListQuery>(path),
    count: v.count<Static<typeof MacroCountQuery>>(path),
    retrieve: v.retrieve<MacroDetail, Static<typeof MacroGetQuery>>(path),
    upsert: v.upsert<MacroPut, MacroDetail>(path),
  };
}
