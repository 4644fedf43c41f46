import { formatDateTime } from '../../../platform/time.js';
import type { MacroRecord } from './repository.js';
import type { MacroDetail, MacroList } from './schemas.js';

/** Macros on the wire: shared by the macro routes and the request routes that offer them. */
export function presentMacro(macro: MacroRecord): MacroList {
  return {
    id: macro.id,
    name: macro.name,
    label: macro.label,
    description: macro.description,
    active: macro.active,
    forms: macro.forms,
    roles: macro.roles,
    custom_status: macro.customStatuses,
    created_at: formatDateTime(macro.createdAt),
    updated_at: formatDateTime(macro.updatedAt),
  };
}

export function presentMacroDetail(macro: MacroRecord, withActions: boolean): MacroDetail {
  return { ...presentMacro(macro), ...(withActions ? { actions: macro.actions } : {}) };
}
