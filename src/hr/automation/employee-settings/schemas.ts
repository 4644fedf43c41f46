import { type Static, Type } from '@sinclair/typebox';

export const EmployeeSettingsParams = Type.Object({ employee_id: Type.String({ description: 'The employee id.' }) });

/** `EmployeeSettingsProcessAutomation`: the onboarding welcome an employee sees. */
export const EmployeeSettingsProcessAutomation = Type.Object(
  {
    employee_id: Type.String({ format: 'uuid' }),
    onboarding: Type.Object({
      welcome_message: Type.Union([Type.String(), Type.Null()], {
        description: 'The description of the employee’s onboarding process (the latest published one); null without.',
      }),
      welcome_file_filename: Type.Union([Type.String(), Type.Null()], {
        description: 'The file name of the welcome file: the document of that process’s first acknowledgment task.',
      }),
      welcome_file_title: Type.Union([Type.String(), Type.Null()], {
        description: 'The title of the welcome file: the name of that acknowledgment task.',
      }),
    }),
  },
  { $id: 'EmployeeSettingsProcessAutomation', title: 'EmployeeSettingsProcessAutomation' },
);
export type EmployeeSettingsProcessAutomation = Static<typeof EmployeeSettingsProcessAutomation>;
