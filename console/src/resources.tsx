/**
 * What the data browser shows of each resource (docs/console.md): which API list, with which of its own
 * search and filter parameters, which columns, and the page of one object. A new resource is one entry of
 * RESOURCES; the pages (pages/data.tsx) and the tenant page's links come from it.
 */

import {
  type Column,
  type Context,
  dataPath,
  type ListSpec,
  pick,
  type Resource,
  type Row,
  text,
} from './data-browser';
import { DocumentFile, Redeliver, TriggerEvent } from './data-parts';

const column = (label: string, ...keys: (string | number)[]): Column => ({
  label,
  value: (row) => text(pick(row, ...keys)),
});
const id = (row: Row) => encodeURIComponent(text(row.id));
const when = (label: string, key: string): Column => ({
  label,
  value: (row) =>
    text(row[key])
      .replace('T', ' ')
      .replace(/\.\d+Z$|Z$/, ''),
});
const signersOf = (row: Row) =>
  (Array.isArray(row.signers) ? row.signers : [])
    .map(
      (signer) =>
        `${text(pick(signer, 'first_name'))} ${text(pick(signer, 'last_name'))} (${text(pick(signer, 'state'))})`,
    )
    .join(', ');
const fullName = (row: unknown) =>
  [text(pick(row, 'firstname')), text(pick(row, 'lastname'))].filter(Boolean).join(' ');

const documentsList: ListSpec = {
  path: '/employee_documents',
  paging: 'cursor',
  search: { param: 'q', label: 'Search', placeholder: 'title, file, employee' },
  columns: [
    { label: 'Title', value: (row) => text(row.title) || text(row.name) },
    column('File', 'name'),
    column('Type', 'document_type_id'),
    column('Date', 'date'),
  ],
  link: (row) => `documents/${id(row)}`,
  caption: 'Employee documents',
  empty: 'No document.',
};

const tasksList: ListSpec = {
  path: '/tasks',
  paging: 'cursor',
  filters: [
    { param: 'status', label: 'Status', options: ['draft', 'to_do', 'blocked', 'completed', 'canceled'] },
    {
      param: 'type',
      label: 'Type',
      options: ['basic', 'acknowledgment', 'fill_form', 'fill_pdf', 'signature', 'validation'],
    },
  ],
  columns: [column('Task', 'name'), column('Type', 'type'), column('Status', 'status'), column('Due', 'due_date')],
  link: (row) => `tasks/${id(row)}`,
  caption: 'Tasks',
  empty: 'No task.',
};

/** An Academy event kind's resource: the list, and an event with its offers, participants and attendance. */
function events(kind: 'ilt' | 'vc', title: string): Resource {
  const people = (label: string): Column => ({
    label,
    value: (row) => [fullName(row), text(row.email)].filter(Boolean).join(', '),
  });
  return {
    name: `events-${kind}`,
    kind: 'academy',
    title,
    list: {
      path: `/events/${kind}`,
      paging: 'offset',
      filters: [
        { param: 'status', label: 'Status', options: ['active', 'archived', 'canceled'] },
        { param: 'dateStart', label: 'Starting from', type: 'date' },
        { param: 'dateEnd', label: 'Starting until', type: 'date' },
      ],
      items: (body) => pick(body, 'events'),
      total: (body) => pick(body, 'all'),
      columns: [
        column('Event', 'title'),
        column('Status', 'status'),
        column('Starts', 'local_start_date'),
        { label: 'Seats', value: (row) => `${text(row.registered)} registered, ${text(row.available_seats)} left` },
      ],
      link: (row) => `events-${kind}/${id(row)}`,
      caption: title,
      empty: 'No event.',
    },
    detail: {
      path: (item) => `/events/${kind}/${encodeURIComponent(item)}`,
      title: (body) => text(body.title),
      fields: [
        ['Status', (body) => text(body.status)],
        ['Starts', (body) => text(body.eventStartDate)],
        ['Ends', (body) => text(body.eventEndDate)],
        ['Time zone', (body) => text(body.timezone)],
        ['Bundle', (body) => text(body.canMultiReadable)],
      ],
      sections: [
        {
          title: 'Offers',
          list: (item) => ({
            path: `/events/${kind}/${encodeURIComponent(item)}/offers`,
            paging: 'offset',
            search: { param: 'search', label: 'Search offers' },
            columns: [column('Offer', 'title'), column('Starts', 'eventStartDate'), column('Status', 'status')],
            link: (row) => `events-${kind}/${id(row)}`,
            caption: 'Offers of the event',
            empty: 'No offer: not a bundle.',
          }),
        },
        {
          title: 'Participants',
          list: (item) => ({
            path: `/events/${kind}/${encodeURIComponent(item)}/users`,
            paging: 'offset',
            items: (body) => pick(body, 'users'),
            total: (body) => pick(body, 'users_count'),
            filters: [{ param: 'onlyCompleted', label: 'Completed only', options: ['true'] }],
            columns: [
              column('User', 'id'),
              people('Name'),
              column('Approved', 'approved'),
              column('Certificate', 'certificate_date'),
            ],
            caption: 'Participants of the event',
            empty: 'No participant.',
          }),
        },
        {
          title: 'Attendance',
          list: (item) => ({
            path: `/events/${kind}/${encodeURIComponent(item)}/users-attendance-data`,
            paging: 'offset',
            search: { param: 'search', label: 'Search attendance' },
            items: (body) => pick(body, 'usersAttendanceData'),
            columns: [column('User', 'userId'), people('Name'), column('Minutes', 'timeSpentInMinutes')],
            caption: 'Attendance of the event',
            empty: 'No attendance.',
          }),
        },
      ],
    },
  };
}

export const RESOURCES: readonly Resource[] = [
  {
    name: 'employees',
    kind: 'hr',
    title: 'Employees',
    list: {
      path: '/employees',
      paging: 'cursor',
      search: { param: 'q', label: 'Search', placeholder: 'name, email, number' },
      filters: [
        { param: 'terminated', label: 'Terminated', options: ['false', 'true'] },
        { param: 'organization_ids', label: 'Organizations', placeholder: 'ids, comma-separated' },
      ],
      columns: [
        { label: 'Name', value: (row) => fullName(row) || text(row.id) },
        column('Email', 'email'),
        column('External id', 'external_id'),
        column('Status', 'status'),
      ],
      link: (row) => `employees/${id(row)}`,
      caption: 'Employees',
      empty: 'No employee.',
    },
    detail: {
      path: (item) => `/employees/${encodeURIComponent(item)}`,
      title: (body) => fullName(body) || text(body.id),
      fields: [
        ['Id', (body) => <code>{text(body.id)}</code>],
        ['Email', (body) => text(body.email)],
        ['External id', (body) => text(body.external_id)],
        ['Status', (body) => text(body.status)],
        ['Starting date', (body) => text(body.starting_date)],
        [
          'Organizations',
          (body) =>
            text(
              (Array.isArray(body.registration_references) ? body.registration_references : []).map((r) =>
                pick(r, 'organization_id'),
              ),
            ),
        ],
      ],
      sections: [{ title: 'Documents', list: (item) => ({ ...documentsList, fixed: { employee_id: item } }) }],
    },
  },
  {
    name: 'documents',
    kind: 'hr',
    title: 'Employee documents',
    list: { ...documentsList, columns: [...documentsList.columns, column('Employee', 'employee_id')] },
    detail: {
      path: (item) => `/employee_documents/${encodeURIComponent(item)}`,
      title: (body) => text(body.title) || text(body.name),
      fields: [
        ['File', (body) => text(body.name)],
        ['Type', (body) => text(body.document_type_id)],
        ['Date', (body) => text(body.date)],
        [
          'Employee',
          (body, context) => (
            <a href={dataPath(context.kind, context.id, `employees/${encodeURIComponent(text(body.employee_id))}`)}>
              {text(body.employee_id)}
            </a>
          ),
        ],
        ['Uploaded', (body) => text(body.created_at)],
      ],
      extra: DocumentFile,
    },
  },
  {
    name: 'requests',
    kind: 'hr',
    title: 'Requests',
    list: {
      path: '/requests',
      paging: 'cursor',
      search: { param: 'q', label: 'Search', placeholder: 'words of the request' },
      filters: [
        { param: 'status', label: 'Status', options: ['created', 'opened', 'pending', 'closed', 'archived'] },
        { param: 'priority', label: 'Priority', options: ['1', '2', '3'] },
      ],
      columns: [
        column('Number', 'request_number'),
        column('Name', 'name'),
        column('Status', 'status'),
        column('Priority', 'priority'),
        column('Comments', 'total_comment_count'),
      ],
      link: (row) => `requests/${id(row)}`,
      caption: 'Requests',
      empty: 'No request.',
    },
    detail: {
      path: (item) => `/requests/${encodeURIComponent(item)}`,
      title: (body) => `Request ${text(body.request_number)}: ${text(body.name)}`,
      fields: [
        ['Status', (body) => text(body.status)],
        ['Priority', (body) => text(body.priority)],
        ['Employee', (body) => fullName(body.employee) || text(body.employee_id)],
        ['Created', (body) => text(body.created_at)],
        ['Due', (body) => text(body.due_date)],
      ],
      sections: [
        {
          title: 'Comments',
          list: (item) => ({
            path: `/requests/${encodeURIComponent(item)}/comments`,
            paging: 'cursor',
            fixed: { embed: 'creator' },
            columns: [
              column('When', 'created_at'),
              { label: 'By', value: (row) => fullName(row.creator) || text(row.creator_id) },
              column('Comment', 'content'),
              { label: 'Internal', value: (row) => (row.is_internal ? 'yes' : 'no') },
            ],
            caption: 'Comments of the request',
            empty: 'No comment.',
          }),
        },
      ],
    },
  },
  {
    name: 'kb-articles',
    kind: 'hr',
    title: 'KB articles',
    list: {
      path: '/kb_articles',
      paging: 'cursor',
      search: { param: 'q', label: 'Search', placeholder: 'at least 3 letters' },
      filters: [{ param: 'status', label: 'Status', options: ['draft', 'published', 'scheduled'] }],
      columns: [
        column('Title', 'versions', 0, 'title'),
        column('Status', 'status'),
        column('Categories', 'categories_ids'),
        column('Updated', 'updated_at'),
      ],
      link: (row) => `kb-articles/${id(row)}`,
      caption: 'Knowledge base articles',
      empty: 'No article.',
    },
    detail: {
      path: (item) => `/kb_articles/${encodeURIComponent(item)}`,
      title: (body) => text(pick(body, 'versions', 0, 'title')) || text(body.id),
      fields: [
        ['Status', (body) => text(body.status)],
        [
          'Languages',
          (body) => text((Array.isArray(body.versions) ? body.versions : []).map((v) => pick(v, 'language_code'))),
        ],
        ['Categories', (body) => text(body.categories_ids)],
        ['Updated', (body) => text(body.updated_at)],
      ],
    },
  },
  {
    name: 'processes',
    kind: 'hr',
    title: 'Processes',
    list: {
      path: '/processes',
      paging: 'cursor',
      filters: [
        {
          param: 'state',
          label: 'State',
          options: ['draft', 'publishing', 'pending', 'done', 'cancelled', 'finalizing', 'error'],
        },
        { param: 'employee_id', label: 'Employee id' },
        { param: 'reference', label: 'Reference' },
      ],
      columns: [
        column('Process', 'title'),
        column('State', 'state'),
        column('Employee', 'employee_id'),
        {
          label: 'Tasks done',
          value: (row) =>
            `${Number(row.done_employee_tasks_count) + Number(row.done_company_tasks_count)} of ${
              Number(row.employee_tasks_count) + Number(row.company_tasks_count)
            }`,
        },
      ],
      link: (row) => `processes/${id(row)}`,
      caption: 'Processes',
      empty: 'No process.',
    },
    detail: {
      path: (item) => `/processes/${encodeURIComponent(item)}`,
      title: (body) => text(body.title),
      fields: [
        ['State', (body) => text(body.state)],
        ['Employee', (body) => text(body.employee_id)],
        ['Template', (body) => text(body.process_template_id)],
        ['Due', (body) => text(body.due_date)],
      ],
      sections: [{ title: 'Tasks', list: (item) => ({ ...tasksList, fixed: { process_id: item } }) }],
    },
  },
  {
    name: 'tasks',
    kind: 'hr',
    title: 'Tasks',
    list: {
      ...tasksList,
      filters: [...(tasksList.filters ?? []), { param: 'process_id', label: 'Process id' }],
      columns: [...tasksList.columns, column('Process', 'process_id')],
    },
    detail: {
      path: (item) => `/tasks/${encodeURIComponent(item)}`,
      title: (body) => text(body.name),
      fields: [
        ['Type', (body) => text(body.type)],
        ['Status', (body) => text(body.status)],
        [
          'Process',
          (body, context) => (
            <a href={dataPath(context.kind, context.id, `processes/${encodeURIComponent(text(body.process_id))}`)}>
              {text(body.process_id)}
            </a>
          ),
        ],
        ['Due', (body) => text(body.due_date)],
        ['Completed', (body) => text(body.completed_at)],
      ],
    },
  },
  {
    name: 'signatures',
    kind: 'hr',
    title: 'Signature processes',
    list: {
      path: '/signature_processes',
      paging: 'cursor',
      search: { param: 'q', label: 'Search', placeholder: 'title, file number, signer' },
      filters: [
        {
          param: 'state',
          label: 'State',
          options: ['draft', 'signing', 'signed', 'done', 'expired', 'rejected', 'canceled', 'error'],
        },
      ],
      columns: [
        column('Title', 'title'),
        column('State', 'state'),
        column('File number', 'file_number'),
        column('Expires', 'expiry_date'),
        { label: 'Signers', value: signersOf },
      ],
      link: (row) => `signatures/${id(row)}`,
      caption: 'Signature processes',
      empty: 'No signature process.',
    },
    detail: {
      path: (item) => `/signature_processes/${encodeURIComponent(item)}`,
      title: (body) => text(body.title),
      fields: [
        ['State', (body) => text(body.state)],
        ['Reason', (body) => text(body.reason)],
        ['File', (body) => text(body.name)],
        ['File number', (body) => text(body.file_number)],
        ['Expires', (body) => text(body.expiry_date)],
        ['Callback', (body) => text(body.callback_url)],
      ],
      sections: [
        {
          title: 'Signers',
          list: (item) => ({
            path: '/signers',
            paging: 'cursor',
            fixed: { signature_process_id: item },
            columns: [
              column('Order', 'signing_order'),
              { label: 'Signer', value: (row) => `${text(row.first_name)} ${text(row.last_name)}` },
              column('State', 'state'),
              when('Signed', 'signed_at'),
              {
                label: 'Signing page',
                value: (row) =>
                  typeof row.signing_url === 'string' ? (
                    <a href={row.signing_url} target="_blank" rel="noreferrer">
                      Open the signing page
                    </a>
                  ) : (
                    ''
                  ),
              },
            ],
            caption: 'Signers, in signing order',
            empty: 'No signer yet.',
          }),
        },
      ],
    },
  },
  {
    name: 'docgen-templates',
    kind: 'hr',
    title: 'Document generation templates',
    list: {
      path: '/document_generation_templates',
      paging: 'cursor',
      search: { param: 'q', label: 'Search', placeholder: 'title, description (3 characters)' },
      columns: [
        column('Title', 'title'),
        column('Locale', 'locale'),
        column('Enabled', 'enabled'),
        column('Active version', 'active_version'),
        column('Syntax', 'active_version_syntax'),
        when('Updated', 'updated_at'),
      ],
      link: (row) => `docgen-templates/${id(row)}`,
      caption: 'Document generation templates',
      empty: 'No template.',
    },
    detail: {
      path: (item) => `/document_generation_templates/${encodeURIComponent(item)}`,
      title: (body) => text(body.title),
      fields: [
        ['Description', (body) => text(body.description)],
        ['Locale', (body) => text(body.locale)],
        ['Enabled', (body) => text(body.enabled)],
        ['Fragment (injectable)', (body) => text(body.is_injectable)],
        ['Latest version', (body) => text(body.latest_version)],
        ['Active version', (body) => text(body.active_version)],
      ],
      sections: [
        {
          title: 'Versions',
          list: (item) => ({
            path: `/document_generation_templates/${encodeURIComponent(item)}/versions`,
            paging: 'cursor',
            columns: [
              column('Version', 'version'),
              column('Syntax', 'syntax_version'),
              column('File', 'filename'),
              {
                label: 'Problems',
                value: (row) =>
                  (Array.isArray(row.template_information) ? row.template_information : [])
                    .map((i) => `${text(pick(i, 'severity'))}: ${text(pick(i, 'message'))}`)
                    .join('; '),
              },
              when('Uploaded', 'created_at'),
            ],
            caption: 'Versions, oldest first',
            empty: 'No version: upload a DOCX with POST …/file.',
          }),
        },
      ],
    },
  },
  {
    name: 'docgen-requests',
    kind: 'hr',
    title: 'Document generation requests',
    list: {
      path: '/document_generation_requests',
      paging: 'cursor',
      filters: [
        {
          param: 'status',
          label: 'Status',
          options: ['processed', 'not_processed', 'received_async', 'sent_async', 'failed'],
        },
      ],
      columns: [
        when('When', 'created_at'),
        column('Status', 'status'),
        column('Format', 'format'),
        column('Template', 'document_generation_template_id'),
        column('Document', 'document_generation_id'),
        column('Failure', 'failure'),
      ],
      caption: 'Document generation requests, newest first',
      empty: 'No generation yet.',
    },
  },
  {
    name: 'inbox',
    kind: 'hr',
    title: 'Inbox items',
    list: {
      path: '/inbox_items',
      paging: 'cursor',
      search: { param: 'q', label: 'Search', placeholder: 'title, inbox, file' },
      filters: [{ param: 'state', label: 'State', options: ['pending', 'processing', 'completed', 'refused'] }],
      columns: [
        column('Title', 'title'),
        column('Type', 'type'),
        column('Documents', 'documents_count'),
        column('State', 'state'),
        when('Created', 'created_at'),
      ],
      link: (row) => `inbox/${id(row)}`,
      caption: 'Inbox items',
      empty: 'No inbox item.',
    },
    detail: {
      path: (item) => `/inbox_items/${encodeURIComponent(item)}`,
      title: (body) => text(body.title),
      fields: [
        ['Type', (body) => text(body.type)],
        ['To', (body) => text(body.to_users_ids) || text(body.to_inbox_id)],
        ['Documents', (body) => text(body.documents_count)],
        ['State', (body) => text(body.state)],
      ],
    },
  },
  {
    name: 'outbox',
    kind: 'hr',
    title: 'Outbox (mail not sent)',
    list: {
      path: '/outbox',
      paging: 'cursor',
      columns: [
        when('When', 'created_at'),
        column('Kind', 'kind'),
        {
          label: 'To',
          value: (row) => `${text(row.to_name)} ${text(row.to_address) ? `<${text(row.to_address)}>` : ''}`,
        },
        column('Subject', 'subject'),
        column('Body', 'body'),
      ],
      caption: 'The mail Atrium would have sent, newest first',
      empty: 'No mail.',
    },
  },
  {
    name: 'webhooks',
    kind: 'hr',
    title: 'Webhooks',
    list: {
      path: '/webhooks',
      paging: 'cursor',
      columns: [
        column('Webhook', 'name'),
        column('Callback', 'callback_url'),
        column('Events', 'events'),
        { label: 'Active', value: (row) => (row.is_active ? 'yes' : 'no') },
      ],
      link: (row) => `webhooks/${id(row)}`,
      caption: 'Webhooks',
      empty: 'No webhook.',
    },
    detail: {
      path: (item) => `/webhooks/${encodeURIComponent(item)}`,
      title: (body) => `Webhook ${text(body.name) || text(body.id)}`,
      fields: [
        ['Callback', (body) => <code>{text(body.callback_url)}</code>],
        ['Events', (body) => text(body.events)],
        ['Active', (body) => (body.is_active ? 'yes' : 'no')],
      ],
      extra: TriggerEvent,
      sections: [
        {
          title: 'Deliveries',
          list: (item) => ({
            path: `/webhooks/${encodeURIComponent(item)}/deliveries`,
            paging: 'cursor',
            columns: [
              when('When', 'created_at'),
              column('Event', 'event_type'),
              column('Attempt', 'attempt'),
              {
                label: 'Result',
                value: (row) => `${text(row.status)} ${text(row.response_code)} ${text(row.error)}`.trim(),
              },
              column('Delivery', 'delivery_status'),
              { label: 'Redeliver', value: (row: Row, context: Context) => <Redeliver row={row} context={context} /> },
            ],
            caption: 'Delivery attempts, newest first',
            empty: 'No delivery yet.',
          }),
        },
      ],
    },
  },
  events('ilt', 'In-class events'),
  events('vc', 'Virtual classroom events'),
  {
    name: 'saml-identity-providers',
    kind: 'hr',
    title: 'SAML identity providers',
    list: {
      path: '/saml/identity_providers',
      paging: 'cursor',
      columns: [
        column('Provider', 'name'),
        column('Entity id', 'entity_id'),
        column('Scope', 'scope'),
        { label: 'Active', value: (row) => (row.activated ? 'yes' : 'no') },
      ],
      caption: 'SAML identity providers',
      empty: 'No identity provider.',
    },
  },
  {
    name: 'process-pdf-templates',
    kind: 'hr',
    title: 'Process PDF templates',
    list: {
      path: '/process_pdf_templates',
      paging: 'cursor',
      columns: [column('Template', 'name'), column('Id', 'id'), column('Document type', 'document_type_id')],
      caption: 'PDF templates of processes',
      empty: 'No PDF template.',
    },
  },
  {
    name: 'directory-users',
    kind: 'academy',
    title: 'Directory: users',
    list: {
      path: '/users',
      paging: 'offset',
      search: { param: 'search', label: 'Search', placeholder: 'name or email' },
      columns: [
        { label: 'User', value: (row) => fullName(row) },
        column('Email', 'email'),
        column('Role', 'role'),
        column('Id', 'id'),
      ],
      caption: 'Users of the academy directory',
      empty: 'No user: import a directory with atrium academy import.',
    },
  },
  {
    name: 'directory-courses',
    kind: 'academy',
    title: 'Directory: courses',
    list: {
      path: '/courses',
      paging: 'offset',
      search: { param: 'search', label: 'Search', placeholder: 'title' },
      columns: [
        column('Course', 'title'),
        column('Id', 'id'),
        column('Students', 'students'),
        column('Lectures', 'lectures_count'),
        column('Exams', 'exams_count'),
      ],
      caption: 'Courses of the academy directory',
      empty: 'No course.',
    },
  },
  {
    name: 'directory-curriculums',
    kind: 'academy',
    title: 'Directory: curriculums',
    list: {
      path: '/curriculums',
      paging: 'offset',
      search: { param: 'search', label: 'Search', placeholder: 'title' },
      columns: [column('Curriculum', 'title'), column('Id', 'id'), column('Category', 'category', 'name')],
      caption: 'Curriculums of the academy directory',
      empty: 'No curriculum.',
    },
  },
];

export function resourceOf(kind: string, name: string): Resource | undefined {
  return RESOURCES.find((r) => r.kind === kind && r.name === name);
}
