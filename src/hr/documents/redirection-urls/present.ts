import type { RedirectionUrls } from './schemas.js';
import type { RedirectionTargets } from './service.js';

/** The redirections, as URLs of the client API at `apiRoot` (the server's origin and `/api/v2/client`). */
export function presentRedirectionUrls(targets: RedirectionTargets, apiRoot: string): RedirectionUrls {
  const url = (path: string, query: Record<string, string | null> = {}) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== null) params.set(name, value);
    const search = params.toString();
    return `${apiRoot}${path}${search ? `?${search}` : ''}`;
  };
  const { employeeId, employeeDocumentTypeId, companyDocumentTypeId } = targets;
  return {
    'employee_space/employee_root_folder_url': url('/employee_folders'),
    'document/employee_document_upload': url('/employee_documents'),
    ...(employeeId !== null
      ? { 'account/employee_root_folder_url': url('/employee_documents', { employee_id: employeeId }) }
      : {}),
    ...(employeeDocumentTypeId !== null
      ? {
          'employee_space/employee_folder': url('/employee_documents', {
            employee_id: employeeId,
            document_type_id: employeeDocumentTypeId,
          }),
        }
      : {}),
    ...(companyDocumentTypeId !== null
      ? {
          'document/enterprise_document_upload': url('/company_documents', { document_type_id: companyDocumentTypeId }),
        }
      : {}),
  };
}
