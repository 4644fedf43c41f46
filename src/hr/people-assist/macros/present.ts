import { formatDateTime } from '../../../platform/time.js';
import type { MacroRow } from './repository.js';
import type { MacroDetail, MacroList } from './schemas.js';
import type { MacroView } from './service.js';

/** Macros on the wire: domain → wire, shared by the macro routes and the request routes that run them. */

export function presentMacro(row: MacroRow): MacroList {
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    description: row.description,
    active: row.active === 1,
    forms: JSON.parse(row.forms),
    roles: JSON.parse(row.roles),
    custom_status: JSON.parse(row.custom_statuses),
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}

export function presentMacroDetail(view: MacroView, withActions: boolean): MacroDetail {
  return { ...presentMacro(view.row), ...(withActions ? { actions: view.actions } : {}) };
}
