import { formatDateTime } from '../../../platform/time.js';
import { type DistributionRecord, type ProjectRecord, packageFields } from './repository.js';
import type { Distribution, DistributionProject } from './schemas.js';

/** A project on the wire (reference §5.6, `DistributionProjectFull`). */
export function presentDistributionProject(p: ProjectRecord): DistributionProject {
  return {
    id: p.id,
    name: p.name,
    paper_configuration: p.paperConfiguration,
    notifications_delivery: p.notificationsDelivery,
    group_paper_mailing: p.groupPaperMailing,
    restrict_access_to_group: p.restrictAccessToGroup,
    send_package_to_specific_organization: p.sendPackageToSpecificOrganization,
    user_id: p.userId,
    automatic_validation: p.automaticValidation,
    ...packageFields(p.package),
    has_paper_configuration_recipient_contact_been_used: p.recipientContactUsed,
    status: p.status,
  };
}

/** A distribution on the wire (reference §5.6, `DistributionFull`). */
export function presentDistribution(d: DistributionRecord): Distribution {
  return {
    id: d.id,
    name: d.name,
    distribution_type_id: d.distributionTypeId,
    distribution_project_id: d.projectId,
    file_id: d.fileId,
    distribution_error: d.error
      ? {
          id: d.error.id,
          message: d.error.message,
          error_type: d.error.type,
          code: d.error.code,
          created_at: formatDateTime(d.error.at),
        }
      : null,
    status: d.status,
  };
}
