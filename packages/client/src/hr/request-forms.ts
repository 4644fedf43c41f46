/** Request forms (`/request_forms`). */
import type { RequestOptions } from '../http.js';
import type {
  ChangeGroupCategory,
  RequestForm,
  RequestFormCountQuery,
  RequestFormGetQuery,
  RequestFormListQuery,
  RequestFormPatch,
  RequestFormPut,
} from '../schemas/hr/people-assist/request-forms.js';
import { enc, type HrCore, type Id, type Verbs } from './core.js';

/** `hr.requestForms`. */
export function requestForms(core: HrCore, v: Verbs) {
  const path = '/request_forms';
  return {
    list: v.list<RequestForm, RequestFormListQuery>(path),
    count: v.count<RequestFormCountQuery>(path),
    retrieve: v.retrieve<RequestForm, RequestFormGetQuery>(path),
    upsert: v.upsert<RequestFormPut, RequestForm, RequestFormGetQuery>(path),
    update: v.update<RequestFormPatch, RequestForm>(path),
    /** Moves every form of the form's multilingual group to another category (204). */
    changeGroupCategory: async (id: Id, body: ChangeGroupCategory, options?: RequestOptions): Promise<void> => {
      await core.call('POST', `${path}/${enc(id)}/change_group_category`, { body }, options);
    },
  };
}
