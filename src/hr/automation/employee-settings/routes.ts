import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../../platform/blobs/store.js';
import { sendBlob } from '../../../platform/http/send-blob.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { presentEmployeeSettings } from './present.js';
import { EmployeeSettingsParams, EmployeeSettingsProcessAutomation } from './schemas.js';
import type { EmployeeSettingsService } from './service.js';

const TAG = ['Employee settings'];

/** `/employee_settings/{employee_id}/process_automation` (reference, "Platform: Employee Settings"). */
export async function employeeSettingsRoutes(
  app: FastifyInstance,
  opts: { employeeSettings: EmployeeSettingsService; blobs: BlobStore },
): Promise<void> {
  const { employeeSettings, blobs } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/employee_settings/:employee_id/process_automation',
    {
      schema: {
        tags: TAG,
        summary: 'Get an employee’s process automation settings',
        description:
          'The onboarding welcome, read from the employee’s latest published process: its description is the message, and the document of its first acknowledgment task the welcome file (all null without).',
        params: EmployeeSettingsParams,
        response: { 200: Type.Ref(EmployeeSettingsProcessAutomation), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) =>
      presentEmployeeSettings(
        await employeeSettings.processAutomation(request.hrAuth.clientId, request.params.employee_id),
      ),
  );

  api.get(
    '/employee_settings/:employee_id/process_automation/welcome_file',
    {
      schema: {
        tags: TAG,
        summary: 'Download the welcome file',
        description: 'The bytes of the welcome file, with Range support; 404 when the employee has none.',
        params: EmployeeSettingsParams,
        response: {
          200: { type: 'string', format: 'binary', description: 'The file.' },
          206: { type: 'string', format: 'binary', description: 'The requested range.' },
          ...errorResponses(401, 403, 404, 416),
        },
      },
    },
    async (request, reply) => {
      const f = await employeeSettings.welcomeFile(request.hrAuth.clientId, request.params.employee_id);
      return sendBlob(reply, request, blobs, {
        sha256: f.sha256,
        size: f.size,
        contentType: f.contentType,
        filename: f.filename,
      });
    },
  );
}
