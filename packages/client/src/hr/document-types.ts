/** Employee document types (`/employee_document_types`) and company document types (`/company_document_types`). */
import type {
  CompanyDocumentType,
  CompanyDocumentTypeInput,
  CompanyDocumentTypeListQuery,
  CompanyDocumentTypePatch,
  EmployeeDocumentType,
  EmployeeDocumentTypeInput,
  EmployeeDocumentTypeListQuery,
  EmployeeDocumentTypePatch,
} from '../schemas/hr/documents/document-types.js';
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
    EmployeeDocumentType,
    EmployeeDocumentTypeInput,
    EmployeeDocumentTypePatch,
    EmployeeDocumentTypeListQuery
  >(v, '/employee_document_types');

/** `hr.companyDocumentTypes`. */
export const companyDocumentTypes = (v: Verbs) =>
  documentTypes<CompanyDocumentType, CompanyDocumentTypeInput, CompanyDocumentTypePatch, CompanyDocumentTypeListQuery>(
    v,
    '/company_document_types',
  );
