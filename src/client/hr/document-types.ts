/** Employee document types (`/employee_document_types`) and company document types (`/company_document_types`). */
import type { Static } from '@sinclair/typebox';
import type {
  CompanyDocumentType,
  CompanyDocumentTypeInput,
  CompanyDocumentTypeListQuery,
  CompanyDocumentTypePatch,
  EmployeeDocumentType,
  EmployeeDocumentTypeInput,
  EmployeeDocumentTypeListQuery,
  EmployeeDocumentTypePatch,
} from '../../hr/documents/document-types/schemas.js';
import type { Verbs } from './core.js';

function documentTypes<Type, Input, Patch, ListQ>(v: Verbs, path: string) {
  return {
    list: v.list<Type, ListQ>(path),
    retrieve: v.retrieve<Type>(path),
    upsert: v.upsert<Input, Type>(path),
    update: v.update<Patch, Type>(path),
  };
}

/** `hr.employeeDocumentTypes`. */
export const employeeDocumentTypes = (v: Verbs) =>
  documentTypes<
    Static<typeof EmployeeDocumentType>,
    Static<typeof EmployeeDocumentTypeInput>,
    Static<typeof EmployeeDocumentTypePatch>,
    Static<typeof EmployeeDocumentTypeListQuery>
  >(v, '/employee_document_types');

/** `hr.companyDocumentTypes`. */
export const companyDocumentTypes = (v: Verbs) =>
  documentTypes<
    Static<typeof CompanyDocumentType>,
    Static<typeof CompanyDocumentTypeInput>,
    Static<typeof CompanyDocumentTypePatch>,
    Static<typeof CompanyDocumentTypeListQuery>
  >(v, '/company_document_types');
